package dev.quaestor.policy;

import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Strict, line-aware reading of one YAML file into nodes. It refuses what could make a file mean
 * something other than what it shows: anchors and aliases, duplicate keys, custom tags and keys
 * nobody reads. Problems are collected as {@link PolicyError}s naming the file and line.
 */
final class YamlReader {

    /** Thrown to abandon the current element after its error has been recorded. */
    static final class Abandon extends RuntimeException {
        Abandon() {
            super(null, null, false, false);
        }
    }

    private final String file;
    private final List<PolicyError> errors;

    YamlReader(String file, List<PolicyError> errors) {
        this.file = file;
        this.errors = errors;
    }

    /** The most characters (code points) a policy file may hold: split a larger set into several files. */
    static final int MAX_CHARACTERS = 1024 * 1024;

    List<Node> documents(Reader reader) {
        var options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(10);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(MAX_CHARACTERS);
        var docs = new ArrayList<Node>();
        for (Node n : new Yaml(options).composeAll(reader)) {
            if (n != null) {
                rejectTricks(n);
                docs.add(n);
            }
        }
        return docs;
    }

    private void rejectTricks(Node node) {
        if (node.getAnchor() != null) {
            throw fail(node, "YAML anchors and aliases are not allowed in policy files");
        }
        Tag tag = node.getTag();
        if (!tag.getValue().startsWith(Tag.PREFIX)) {
            // Only YAML's own tags (str, int, bool, map, ...) are accepted; custom tags such as !foo are not.
            throw fail(node, "YAML tag " + tag.getValue() + " is not allowed in policy files");
        }
        if (node instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                rejectTricks(t.getKeyNode());
                rejectTricks(t.getValueNode());
            }
        } else if (node instanceof SequenceNode s) {
            for (Node n : s.getValue()) {
                rejectTricks(n);
            }
        }
    }

    /** How many errors have been reported so far, by this reader and others sharing its list. */
    int errorCount() {
        return errors.size();
    }

    /** How an element is named in messages: by its id or name, or where it is when it has none. */
    String named(String kind, String id, Node node) {
        return id == null ? kind + " at line " + line(node) : kind + " '" + id + "'";
    }

    String file() {
        return file;
    }

    int line(Node node) {
        return node.getStartMark().getLine() + 1;
    }

    String origin(Node node) {
        return file + ":" + line(node);
    }

    Abandon fail(Node node, String message) {
        errors.add(new PolicyError(file, node == null ? 0 : line(node), message));
        return new Abandon();
    }

    void error(Node node, String message) {
        errors.add(new PolicyError(file, node == null ? 0 : line(node), message));
    }

    /** A mapping's entries, after checking for duplicate and unknown keys and for required keys. */
    Map<String, Node> mapping(Node node, String what, Set<String> allowed, Set<String> required) {
        var out = entries(node, what, allowed);
        if (!hasAll(node, out, what, required)) {
            throw new Abandon();
        }
        return out;
    }

    /**
     * A mapping's entries, after checking for duplicate and unknown keys (each reported, the rest kept); only a node
     * that is no mapping at all abandons the element.
     */
    Map<String, Node> entries(Node node, String what, Set<String> allowed) {
        if (!(node instanceof MappingNode m)) {
            throw fail(node, what + " must be a mapping");
        }
        var out = new LinkedHashMap<String, Node>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw fail(t.getKeyNode(), what + " has a key that is not a plain string");
            }
            String key = k.getValue();
            if (out.containsKey(key)) {
                error(k, "duplicate key '" + key + "' in " + what);
                continue;
            }
            if (!allowed.contains(key)) {
                error(k, "unknown key '" + key + "' in " + what + " (allowed: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
                continue;
            }
            out.put(key, t.getValueNode());
        }
        return out;
    }

    /** Whether the entries hold every required key; each one missing is reported. */
    boolean hasAll(Node node, Map<String, Node> entries, String what, Set<String> required) {
        boolean all = true;
        // In a fixed order, so that the server and the offline CLI name the same missing keys for the same file.
        for (String r : new java.util.TreeSet<>(required)) {
            if (!entries.containsKey(r)) {
                error(node, what + " is missing required key '" + r + "'");
                all = false;
            }
        }
        return all;
    }

    String string(Node node, String what) {
        if (!(node instanceof ScalarNode s)) {
            throw fail(node, what + " must be a single value");
        }
        if (s.getTag().equals(Tag.NULL)) {
            throw fail(node, what + " must not be empty");
        }
        return s.getValue();
    }

    /**
     * An id (of a rule, limit or guard): 1 to 128 letters, digits and {@code . _ : / -}, starting with a letter or
     * digit. Records list the rules that decided a request as their ids joined by commas, so an id with a comma, a
     * space or nothing in it would make that list say something else.
     */
    String id(Node node, String what) {
        String id = string(node, what);
        if (!ID.matcher(id).matches()) {
            throw fail(node, what + " must be 1 to 128 letters, digits and . _ : / -, starting with a letter or digit"
                    + " (records list rule ids joined by commas); not '" + (id.length() > 64 ? id.substring(0, 64) + "…" : id) + "'");
        }
        return id;
    }

    private static final java.util.regex.Pattern ID = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");

    boolean bool(Node node, String what) {
        String s = string(node, what);
        return switch (s) {
            case "true" -> true;
            case "false" -> false;
            default -> throw fail(node, what + " must be true or false, not '" + s + "'");
        };
    }

    long positiveLong(Node node, String what) {
        String s = string(node, what);
        try {
            long v = Long.parseLong(s);
            if (v <= 0) {
                throw fail(node, what + " must be a positive whole number");
            }
            return v;
        } catch (NumberFormatException e) {
            throw fail(node, what + " must be a positive whole number, not '" + s + "'");
        }
    }

    List<Node> sequence(Node node, String what) {
        if (!(node instanceof SequenceNode s)) {
            throw fail(node, what + " must be a list");
        }
        return s.getValue();
    }

    List<String> strings(Node node, String what) {
        var out = new ArrayList<String>();
        for (Node n : sequence(node, what)) {
            out.add(string(n, "an entry of " + what));
        }
        return out;
    }
}
