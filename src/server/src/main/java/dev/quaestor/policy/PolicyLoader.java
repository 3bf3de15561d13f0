package dev.quaestor.policy;

import dev.quaestor.uri.UriCanonicalizer;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a directory of policy files into one validated {@link PolicySet}, or refuses the whole set
 * with every problem found ({@link PolicyValidationException}). The set's {@code tests:} are run
 * before it is returned, so a set whose own tests fail is never activated.
 *
 * <p>Files: every regular file directly in the directory named as a policy file ({@link PolicyFileName}), following
 * symlinks (as Kubernetes ConfigMap volumes use them); the kubelet's {@code ..data} and its kin are skipped, a name
 * that looks meant as a policy file but is not one refuses the set, and so does an entry so named that cannot be read
 * as a file ({@link PolicyFileEntry}: a dangling link, a link to a directory, a pipe, a file this process may not read).
 * Directories are skipped. {@link #parse} takes policy file names only.
 */
public final class PolicyLoader {

    private static final Set<String> DOC_KEYS = Set.of("apiVersion", "kind", "metadata", "rules", "limits", "tests",
            "guards");
    private static final Set<String> META_KEYS = Set.of("name", "description");
    private static final Set<String> RULE_KEYS = Set.of("id", "effect", "actions", "resources", "subjects", "when", "description");
    private static final Set<String> RULE_REQUIRED = Set.of("id", "effect", "actions", "resources", "subjects");
    private static final Set<String> SUBJECT_KEYS = Set.of("roles", "groups", "subjects", "clients", "tenants");
    private static final Set<String> WHEN_KEYS = Set.of("scopes", "sourceCidrs", "timeWindow");
    private static final Set<String> LIMIT_KEYS = Set.of("id", "key", "capacity", "refill", "resources", "actions", "shadow", "fail",
            "description");
    private static final Set<String> LIMIT_REQUIRED = Set.of("id", "key", "capacity", "refill");
    private static final Set<String> REFILL_KEYS = Set.of("tokens", "period");
    private static final Set<String> GUARD_KEYS = Set.of("id", "resources", "actions", "description");
    private static final Pattern PERIOD = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private PolicyLoader() {
    }

    public static PolicySet load(Path dir) {
        var errors = new ArrayList<PolicyError>();
        return parse(read(dir, errors), errors);
    }

    /** The (file name, content) pairs of a policy directory, sorted by name. */
    static List<Map.Entry<String, String>> read(Path dir, List<PolicyError> errors) {
        List<Path> files;
        try (Stream<Path> s = Files.list(configMapData(dir))) {
            files = s.filter(p -> PolicyFileName.of(p.getFileName().toString()) != PolicyFileName.Kind.IGNORED)
                    .filter(p -> !PolicyFileEntry.isDirectory(p))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            String why = Files.notExists(dir) ? "does not exist" : Files.isDirectory(dir) ? "cannot be listed: " + e.getMessage()
                    : "is not a directory";
            throw new PolicyValidationException(List.of(new PolicyError(dir.toString(), 0, "the policy directory " + why
                    + " (quaestor.policies.path, QUAESTOR_POLICIES_PATH)")));
        }
        var misnamed = files.stream().filter(p -> PolicyFileName.of(p.getFileName().toString()) == PolicyFileName.Kind.REFUSED).toList();
        for (Path f : misnamed) {
            errors.add(new PolicyError(f.getFileName().toString(), 0, "looks like a policy file but is not named as one, so it"
                    + " would not be read: " + PolicyFileName.RULE + " (rename it, or move it out of the directory)"));
        }
        files = files.stream().filter(p -> !misnamed.contains(p)).toList();
        var unreadable = new ArrayList<Path>();
        for (Path f : files) {
            PolicyFileEntry.problem(f).ifPresent(why -> {
                unreadable.add(f);
                errors.add(new PolicyError(f.getFileName().toString(), 0, "cannot be read as a policy file, so its rules would be"
                        + " skipped: " + why + " (fix it, or remove it from the directory)"));
            });
        }
        files = files.stream().filter(p -> !unreadable.contains(p)).toList();
        if (files.isEmpty()) {
            var all = new ArrayList<>(errors);
            all.add(new PolicyError(dir.toString(), 0, "no *.yaml policy files found"));
            throw new PolicyValidationException(all);
        }
        var contents = new ArrayList<Map.Entry<String, String>>();
        for (Path f : files) {
            try {
                contents.add(Map.entry(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                errors.add(new PolicyError(f.getFileName().toString(), 0, "cannot read: " + e.getMessage()));
            }
        }
        return contents;
    }

    /**
     * The directory to read. In a Kubernetes ConfigMap volume the visible names are links into {@code ..data}, a link
     * the kubelet points at a new directory in one rename and only then fixes the visible links: reading the directory
     * {@code ..data} names at this moment gives one version whole, never old links mixed with new files.
     */
    private static Path configMapData(Path dir) {
        Path data = dir.resolve("..data");
        if (!Files.isSymbolicLink(data)) {
            return dir;
        }
        try {
            return data.toRealPath();
        } catch (IOException e) {
            return dir; // swapped away while resolved: the visible names, as before (the next reload reads it whole)
        }
    }

    /** Builds a set from (file name, content) pairs; the directory form delegates here. */
    public static PolicySet parse(List<Map.Entry<String, String>> files, List<PolicyError> errors) {
        var into = new Declared();
        for (var f : files) {
            String name = f.getKey();
            String text = f.getValue();
            if (name.indexOf(0) >= 0) {
                errors.add(new PolicyError(name.replace("\0", "\\0"), 0, "a NUL byte in the file name: a policy file's name holds none"));
            } else if (PolicyFileName.of(name) != PolicyFileName.Kind.POLICY) {
                errors.add(new PolicyError(name, 0, "not a policy file name, so a server would not read this file: "
                        + PolicyFileName.RULE));
            } else if (text.indexOf(0) >= 0) {
                int line = (int) text.substring(0, text.indexOf(0)).chars().filter(c -> c == '\n').count() + 1;
                errors.add(new PolicyError(name, line, "a NUL byte: a policy file holds none"));
            } else {
                readFile(name, text, errors, into);
            }
        }
        checkUnique(into.rules.stream().map(r -> Map.entry(r.id(), r.origin())).toList(), "rule", errors);
        checkUnique(into.limits.stream().map(l -> Map.entry(l.id(), l.origin())).toList(), "limit", errors);
        checkUnique(into.guards.stream().map(g -> Map.entry(g.id(), g.origin())).toList(), "guard", errors);
        // The mistakes of single tests leave the rules whole: the other tests are still judged, so that a failing
        // test is reported beside another test's typo, not only once the typo is fixed.
        boolean rulesWhole = errors.size() == into.testMistakes;
        var untimed = UntimedTests.of(into.rules, into.tests);
        errors.addAll(UntimedTests.errors(into.rules, untimed));
        if (!rulesWhole) {
            throw new PolicyValidationException(errors);
        }
        var set = new PolicySet(revision(files), into.rules, into.limits, into.tests, into.guards, files);
        for (PolicyTestCase t : into.tests) {
            if (untimed.contains(t)) {
                continue; // its verdict would depend on the hour; refused above
            }
            var decision = set.decide(t.identity(), t.action(), UriCanonicalizer.canonicalize(t.uri()), t.facts());
            if (decision.allowed() != t.expectAllow()) {
                errors.add(new PolicyError(t.file(), t.line(), "test '" + t.name() + "' expected "
                        + (t.expectAllow() ? "allow" : "deny") + " but got " + (decision.allowed() ? "allow" : "deny")
                        + (decision.rules().isEmpty() ? " (no rule matched)" : " by " + decision.rules())));
            }
        }
        if (!errors.isEmpty()) {
            throw new PolicyValidationException(errors);
        }
        return set;
    }

    /** What the files declare, gathered across them, and how many errors the reading of single tests reported. */
    private static final class Declared {
        final List<Rule> rules = new ArrayList<>();
        final List<RateLimitRule> limits = new ArrayList<>();
        final List<PolicyTestCase> tests = new ArrayList<>();
        final List<Guard> guards = new ArrayList<>();
        int testMistakes;
    }

    private static void readFile(String name, String text, List<PolicyError> errors, Declared into) {
        var y = new YamlReader(name, errors);
        int characters = text.codePointCount(0, text.length());
        if (characters > YamlReader.MAX_CHARACTERS) {
            errors.add(new PolicyError(name, 0, "a policy file holds at most " + String.format("%,d", YamlReader.MAX_CHARACTERS)
                    + " characters, this one " + String.format("%,d", characters) + ": split its rules into several files"));
            return;
        }
        List<Node> docs;
        try {
            docs = y.documents(new StringReader(text));
        } catch (YamlReader.Abandon e) {
            return;
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() != null ? e.getProblemMark().getLine() + 1 : 0;
            errors.add(new PolicyError(name, line, "invalid YAML: " + e.getProblem()));
            return;
        } catch (YAMLException e) {
            errors.add(new PolicyError(name, 0, "invalid YAML: " + e.getMessage()));
            return;
        }
        if (docs.isEmpty()) {
            errors.add(new PolicyError(name, 0, "file is empty"));
        }
        for (Node doc : docs) {
            try {
                readDocument(y, doc, into);
            } catch (YamlReader.Abandon e) {
                // recorded
            }
        }
    }

    private static void readDocument(YamlReader y, Node doc, Declared into) {
        var m = y.entries(doc, "policy document", DOC_KEYS);
        y.hasAll(doc, m, "policy document", Set.of("apiVersion", "kind"));
        if (m.containsKey("apiVersion") && !"quaestor/v1".equals(y.string(m.get("apiVersion"), "apiVersion"))) {
            y.error(m.get("apiVersion"), "apiVersion must be quaestor/v1");
        }
        if (m.containsKey("kind") && !"Policy".equals(y.string(m.get("kind"), "kind"))) {
            y.error(m.get("kind"), "kind must be Policy");
        }
        if (m.containsKey("metadata")) {
            y.mapping(m.get("metadata"), "metadata", META_KEYS, Set.of());
        }
        if (m.containsKey("rules")) {
            for (Node r : y.sequence(m.get("rules"), "rules")) {
                guarded(() -> into.rules.add(readRule(y, r)));
            }
        }
        if (m.containsKey("limits")) {
            for (Node l : y.sequence(m.get("limits"), "limits")) {
                guarded(() -> into.limits.add(readLimit(y, l)));
            }
        }
        if (m.containsKey("tests")) {
            for (Node t : y.sequence(m.get("tests"), "tests")) {
                int before = y.errorCount();
                guarded(() -> into.tests.add(TestCaseReader.read(y, t)));
                into.testMistakes += y.errorCount() - before;
            }
        }
        if (m.containsKey("guards")) {
            for (Node g : y.sequence(m.get("guards"), "guards")) {
                guarded(() -> into.guards.add(readGuard(y, g)));
            }
        }
    }

    private static void guarded(Runnable r) {
        try {
            r.run();
        } catch (YamlReader.Abandon e) {
            // recorded; go on to find further problems
        }
    }

    private static Rule readRule(YamlReader y, Node node) {
        var m = y.entries(node, "rule", RULE_KEYS);
        // Each part on its own, so that a rule with several mistakes has each of them reported at once.
        var parts = new Parts();
        parts.check(y.hasAll(node, m, "rule", RULE_REQUIRED));
        String id = parts.read(m.get("id"), n -> y.id(n, "rule id"));
        String what = y.named("rule", id, node);
        Effect effect = parts.read(m.get("effect"), n -> effect(y, n, what));
        Set<Action> actions = parts.read(m.get("actions"), n -> actions(y, n, what));
        List<ResourcePattern> patterns = parts.read(m.get("resources"), n -> patterns(y, n, what));
        SubjectSet subjects = parts.read(m.get("subjects"), n -> subjects(y, n, what));
        Conditions when = m.containsKey("when") ? parts.read(m.get("when"), n -> conditions(y, n, what)) : Conditions.NONE;
        parts.done();
        return new Rule(id, effect, actions, patterns, subjects, when, y.origin(node));
    }

    private static Effect effect(YamlReader y, Node node, String what) {
        String text = y.string(node, "effect");
        return switch (text) {
            case "allow" -> Effect.ALLOW;
            case "deny" -> Effect.DENY;
            default -> throw y.fail(node, what + ": effect must be allow or deny, not '" + text + "'");
        };
    }

    private static SubjectSet subjects(YamlReader y, Node node, String what) {
        var sm = y.entries(node, "subjects of " + what, SUBJECT_KEYS);
        var parts = new Parts();
        Set<String> roles = parts.read(() -> Names.list(y, sm.get("roles"), "roles"));
        Set<String> groups = parts.read(() -> Names.list(y, sm.get("groups"), "groups"));
        Set<String> subjects = parts.read(() -> Names.list(y, sm.get("subjects"), "subjects"));
        Set<String> clients = parts.read(() -> Names.list(y, sm.get("clients"), "clients"));
        Set<String> tenants = parts.read(() -> Names.list(y, sm.get("tenants"), "tenants"));
        parts.done();
        var set = new SubjectSet(roles, groups, subjects, clients, tenants);
        if (set.isEmpty()) {
            throw y.fail(node, what + " names no subjects (use roles: [\"*\"] for any authenticated caller)");
        }
        return set;
    }

    private static Conditions conditions(YamlReader y, Node node, String what) {
        var wm = y.entries(node, "when of " + what, WHEN_KEYS);
        var parts = new Parts();
        Set<String> scopes = parts.read(() -> Names.list(y, wm.get("scopes"), "scopes"));
        List<Cidr> cidrs = wm.containsKey("sourceCidrs") ? parts.read(wm.get("sourceCidrs"), n -> cidrs(y, n, what)) : List.of();
        TimeWindow window = parts.read(wm.get("timeWindow"), n -> TimeWindowReader.read(y, n, what));
        parts.done();
        return new Conditions(scopes, cidrs, window);
    }

    private static List<Cidr> cidrs(YamlReader y, Node node, String what) {
        var out = new ArrayList<Cidr>();
        var parts = new Parts();
        for (Node n : y.sequence(node, "sourceCidrs")) {
            Cidr cidr = parts.read(() -> {
                String c = y.string(n, "an entry of sourceCidrs");
                try {
                    return Cidr.parse(c);
                } catch (IllegalArgumentException e) {
                    throw y.fail(n, what + ": " + e.getMessage());
                }
            });
            out.add(cidr);
        }
        parts.done();
        return out;
    }

    private static RateLimitRule readLimit(YamlReader y, Node node) {
        var m = y.entries(node, "limit", LIMIT_KEYS);
        var parts = new Parts();
        parts.check(y.hasAll(node, m, "limit", LIMIT_REQUIRED));
        String id = parts.read(m.get("id"), n -> y.id(n, "limit id"));
        String what = y.named("limit", id, node);
        RateLimitRule.Key key = parts.read(m.get("key"), n -> limitKey(y, n, what));
        Long capacity = parts.read(m.get("capacity"), n -> y.positiveLong(n, "capacity of " + what));
        var rm = parts.read(m.get("refill"), n -> y.entries(n, "refill of " + what, REFILL_KEYS));
        if (rm != null) {
            parts.check(y.hasAll(m.get("refill"), rm, "refill of " + what, REFILL_KEYS));
        }
        Long tokens = rm == null ? null : parts.read(rm.get("tokens"), n -> y.positiveLong(n, "refill tokens of " + what));
        Duration period = rm == null ? null : parts.read(rm.get("period"), n -> period(y, n, "refill period of " + what));
        var patterns = m.containsKey("resources") ? parts.read(m.get("resources"), n -> patterns(y, n, what))
                : List.of(ResourcePattern.parse("**"));
        Set<Action> actions = m.containsKey("actions") ? parts.read(m.get("actions"), n -> actions(y, n, what))
                : EnumSet.allOf(Action.class);
        Boolean shadow = m.containsKey("shadow") ? parts.read(m.get("shadow"), n -> y.bool(n, "shadow of " + what)) : Boolean.FALSE;
        RateLimitRule.Fail fail = m.containsKey("fail") ? parts.read(m.get("fail"), n -> limitFail(y, n, what)) : RateLimitRule.Fail.CLOSED;
        parts.done();
        return new RateLimitRule(id, key, capacity, tokens, period, patterns, actions, shadow, fail, y.origin(node));
    }

    private static RateLimitRule.Key limitKey(YamlReader y, Node node, String what) {
        String text = y.string(node, "key");
        return switch (text) {
            case "subject" -> RateLimitRule.Key.SUBJECT;
            case "client" -> RateLimitRule.Key.CLIENT;
            case "tenant" -> RateLimitRule.Key.TENANT;
            case "ip" -> RateLimitRule.Key.IP;
            default -> throw y.fail(node, what + ": key must be subject, client, tenant or ip, not '" + text + "'");
        };
    }

    private static RateLimitRule.Fail limitFail(YamlReader y, Node node, String what) {
        String text = y.string(node, "fail of " + what);
        return switch (text) {
            case "closed" -> RateLimitRule.Fail.CLOSED;
            case "open" -> RateLimitRule.Fail.OPEN;
            default -> throw y.fail(node, what + ": fail must be closed or open, not '" + text + "'");
        };
    }

    private static Guard readGuard(YamlReader y, Node node) {
        var m = y.entries(node, "guard", GUARD_KEYS);
        var parts = new Parts();
        parts.check(y.hasAll(node, m, "guard", Set.of("id", "resources")));
        String id = parts.read(m.get("id"), n -> y.id(n, "guard id"));
        String what = y.named("guard", id, node);
        var patterns = parts.read(m.get("resources"), n -> {
            var read = patterns(y, n, what);
            for (ResourcePattern p : read) {
                if (p.source().contains("${")) {
                    throw y.fail(n, what + ": '" + p.source() + "' has a placeholder; a guard names resources, not callers");
                }
            }
            return read;
        });
        Set<Action> actions = m.containsKey("actions") ? parts.read(m.get("actions"), n -> actions(y, n, what))
                : EnumSet.allOf(Action.class);
        parts.done();
        return new Guard(id, patterns, actions, y.origin(node));
    }

    private static Set<Action> actions(YamlReader y, Node node, String what) {
        var out = EnumSet.noneOf(Action.class);
        List<String> names = y.strings(node, "actions of " + what);
        if (names.isEmpty()) {
            throw y.fail(node, what + " has no actions");
        }
        var parts = new Parts();
        for (String a : names) {
            if (a.equals("*")) {
                out.addAll(EnumSet.allOf(Action.class));
            } else {
                Action action = Action.fromWireName(a);
                if (action == null) {
                    y.error(node, what + ": unknown action '" + a + "' (list, read, subscribe or *)");
                    parts.check(false);
                } else {
                    out.add(action);
                }
            }
        }
        parts.done();
        return out;
    }

    private static List<ResourcePattern> patterns(YamlReader y, Node node, String what) {
        var out = new ArrayList<ResourcePattern>();
        List<String> globs = y.strings(node, "resources of " + what);
        if (globs.isEmpty()) {
            throw y.fail(node, what + " has no resources");
        }
        var parts = new Parts();
        for (String g : globs) {
            out.add(parts.read(() -> {
                try {
                    return ResourcePattern.parse(g);
                } catch (IllegalArgumentException e) {
                    throw y.fail(node, what + ": " + e.getMessage());
                }
            }));
        }
        parts.done();
        return out;
    }

    private static Duration period(YamlReader y, Node node, String what) {
        String s = y.string(node, what);
        Matcher m = PERIOD.matcher(s);
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw y.fail(node, what + " must look like 500ms, 10s, 1m, 1h or 1d, not '" + s + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static void checkUnique(List<Map.Entry<String, String>> idsAndOrigins, String what, List<PolicyError> errors) {
        var seen = new HashMap<String, String>();
        for (var e : idsAndOrigins) {
            String prior = seen.putIfAbsent(e.getKey(), e.getValue());
            if (prior != null) {
                String[] at = e.getValue().split(":(?=\\d+$)");
                errors.add(new PolicyError(at[0], Integer.parseInt(at[1]),
                        "duplicate " + what + " id '" + e.getKey() + "' (first defined at " + prior + ")"));
            }
        }
    }

    /**
     * SHA-256 over the sorted file names and their exact bytes, each name and text followed by a NUL: any edit,
     * comments included, is a new revision. The NULs separate the files only because {@link #parse} refuses a file
     * whose name or text holds one.
     */
    public static String revision(List<Map.Entry<String, String>> files) {
        try {
            var md = MessageDigest.getInstance("SHA-256");
            files.stream().sorted(Map.Entry.comparingByKey()).forEach(f -> {
                md.update(f.getKey().getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
                md.update(f.getValue().getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
            });
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
