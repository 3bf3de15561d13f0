package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A trie over scheme, authority and path segments that finds the few rule patterns that could
 * match a URI without looking at the others, so a decision costs about the same with 10 rules or
 * 100,000. Literal segments are hash lookups; segments with {@code *} or placeholders are tried
 * one by one at their node; a {@code **} segment ends the path and its pattern is a candidate for
 * everything below. Candidates are then checked in full by {@link ResourcePattern#matches}.
 */
final class RuleIndex {

    /** One (rule, pattern) pair: a rule with several resources has several entries. */
    record Entry(Rule rule, ResourcePattern pattern) {
    }

    static final class Node {
        final Map<String, Node> literal = new HashMap<>();
        final Map<String, Node> globs = new LinkedHashMap<>();
        final List<Entry> anyDepth = new ArrayList<>(0);
        final List<Entry> terminal = new ArrayList<>(0);

        Node child(String segment) {
            boolean glob = segment.indexOf('*') >= 0 || segment.contains("${");
            return (glob ? globs : literal).computeIfAbsent(segment, k -> new Node());
        }

        void forEachBelow(Consumer<Entry> out) {
            anyDepth.forEach(out);
            terminal.forEach(out);
            literal.values().forEach(n -> n.forEachBelow(out));
            globs.values().forEach(n -> n.forEachBelow(out));
        }
    }

    private static final String ANY = "\u0000any";

    /** scheme (or ANY) -> authority (or ANY) -> root of the path trie. */
    private final Map<String, Map<String, Node>> roots = new HashMap<>();

    RuleIndex(List<Rule> rules) {
        for (Rule r : rules) {
            for (ResourcePattern p : r.resources()) {
                Node n = roots.computeIfAbsent(p.scheme() == null ? ANY : p.scheme(), k -> new HashMap<>())
                        .computeIfAbsent(p.authority() == null ? ANY : p.authority(), k -> new Node());
                var entry = new Entry(r, p);
                boolean placed = false;
                for (String seg : p.segments()) {
                    if (seg.equals(ResourcePattern.ANY_DEPTH)) {
                        n.anyDepth.add(entry);
                        placed = true;
                        break;
                    }
                    n = n.child(seg);
                }
                if (!placed) {
                    n.terminal.add(entry);
                }
            }
        }
    }

    /** Every entry whose pattern could match {@code uri}; callers still check each in full. */
    void candidates(CanonicalUri uri, Identity who, Consumer<Entry> out) {
        for (Node root : roots(uri)) {
            walk(root, uri.segments(), 0, who, out);
        }
    }

    /**
     * Entries whose pattern could match something at or below {@code prefix}, and whether each
     * covers all of it (a trailing {@code **} reached on the way). Used for subtree verdicts.
     */
    void below(CanonicalUri prefix, Identity who, java.util.function.BiConsumer<Entry, Boolean> out) {
        if (prefix.authority().isEmpty() && prefix.segments().isEmpty()) {
            // A scheme-only prefix such as test:// spans every authority of the scheme.
            for (String scheme : new String[] {prefix.scheme(), ANY}) {
                Map<String, Node> byAuthority = roots.get(scheme);
                if (byAuthority != null) {
                    byAuthority.forEach((authority, root) -> {
                        if (authority.equals(ANY)) {
                            reach(root, prefix.segments(), 0, who, out);
                        } else {
                            root.forEachBelow(e -> out.accept(e, false));
                        }
                    });
                }
            }
            return;
        }
        for (Node root : roots(prefix)) {
            reach(root, prefix.segments(), 0, who, out);
        }
    }

    private List<Node> roots(CanonicalUri uri) {
        var out = new ArrayList<Node>(4);
        for (String scheme : new String[] {uri.scheme(), ANY}) {
            Map<String, Node> byAuthority = roots.get(scheme);
            if (byAuthority != null) {
                Node exact = byAuthority.get(uri.authority());
                if (exact != null) {
                    out.add(exact);
                }
                Node any = byAuthority.get(ANY);
                if (any != null) {
                    out.add(any);
                }
            }
        }
        return out;
    }

    private static void walk(Node n, List<String> segs, int i, Identity who, Consumer<Entry> out) {
        n.anyDepth.forEach(out);
        if (i == segs.size()) {
            n.terminal.forEach(out);
            return;
        }
        Node next = n.literal.get(segs.get(i));
        if (next != null) {
            walk(next, segs, i + 1, who, out);
        }
        if (!n.globs.isEmpty()) {
            for (var g : n.globs.entrySet()) {
                if (ResourcePattern.segmentMatches(ResourcePattern.bind(g.getKey(), who), segs.get(i))) {
                    walk(g.getValue(), segs, i + 1, who, out);
                }
            }
        }
    }

    private static void reach(Node n, List<String> segs, int i, Identity who, java.util.function.BiConsumer<Entry, Boolean> out) {
        for (Entry e : n.anyDepth) {
            out.accept(e, e.pattern().endsWithAnyDepthAt(i));
        }
        if (i == segs.size()) {
            n.terminal.forEach(e -> out.accept(e, false));
            n.literal.values().forEach(c -> c.forEachBelow(e -> out.accept(e, false)));
            n.globs.values().forEach(c -> c.forEachBelow(e -> out.accept(e, false)));
            return;
        }
        Node next = n.literal.get(segs.get(i));
        if (next != null) {
            reach(next, segs, i + 1, who, out);
        }
        for (var g : n.globs.entrySet()) {
            if (ResourcePattern.segmentMatches(ResourcePattern.bind(g.getKey(), who), segs.get(i))) {
                reach(g.getValue(), segs, i + 1, who, out);
            }
        }
    }
}
