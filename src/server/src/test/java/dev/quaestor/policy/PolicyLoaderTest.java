package dev.quaestor.policy;

import dev.quaestor.support.Repo;
import dev.quaestor.identity.Identity;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PolicyLoaderTest {

    private static final String HEAD = "apiVersion: quaestor/v1\nkind: Policy\n";
    private static final Facts FACTS = new Facts("10.1.2.3", java.time.Instant.parse("2026-03-04T10:00:00Z"));

    private static PolicySet parse(String... namesAndContents) {
        var files = new ArrayList<Map.Entry<String, String>>();
        for (int i = 0; i < namesAndContents.length; i += 2) {
            files.add(Map.entry(namesAndContents[i], namesAndContents[i + 1]));
        }
        return PolicyLoader.parse(files, new ArrayList<>());
    }

    private static List<PolicyError> errors(String... namesAndContents) {
        return assertThrows(PolicyValidationException.class, () -> parse(namesAndContents)).errors();
    }

    private static Identity who(String subject, String... roles) {
        return new Identity(subject, "client", "acme", Set.of(roles), Set.of(), Set.of("resources:read"));
    }

    private static boolean allowed(PolicySet set, Identity id, Action a, String uri) {
        return set.decide(id, a, UriCanonicalizer.canonicalize(uri), FACTS).allowed();
    }

    @Test
    void shippedSamplesLoadAndPassTheirTests() {
        PolicySet set = PolicyLoader.load(Repo.POLICIES);
        assertFalse(set.tests().isEmpty());
        assertEquals(64, set.revision().length());
    }

    /** A policy directory that is missing, or is a file, is named with what is wrong and the setting that names it. */
    @Test
    void aMissingPolicyDirectoryIsNamedWithTheSettingToFix(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        var missing = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(tmp.resolve("policies")));
        assertTrue(missing.getMessage().contains("the policy directory does not exist (quaestor.policies.path,"
                + " QUAESTOR_POLICIES_PATH)"), missing.getMessage());
        java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("policy.yaml"), "x");
        var notADirectory = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(file));
        assertTrue(notADirectory.getMessage().contains("the policy directory is not a directory"), notADirectory.getMessage());
    }

    /** The GitOps example of deploy/ (an organisation's own policy repository) is a valid set whose tests pass. */
    @Test
    void gitOpsExamplePoliciesLoadAndPassTheirTests() {
        PolicySet set = PolicyLoader.load(Repo.ROOT.resolve("deploy/examples/own-policies/policies"));
        assertEquals(2, set.tests().size());
        assertTrue(allowed(set, new Identity("rita", null, null, Set.of("records-officer"), Set.of(), Set.of()),
                Action.READ, "file:///docs/tenants/globex/report.md"));
    }

    /** A rule with several mistakes has each reported at once, with its line, not only the first. */
    @Test
    void everyMistakeOfOneRuleIsReported() {
        var e = errors("a.yaml", HEAD + "rules:\n"
                + "  - id: r\n"
                + "    effect: alow\n"
                + "    actions: [read, wrte]\n"
                + "    resources: [\"file:///docs/pub**lic/a\"]\n"
                + "    subjects: {subjets: [\"*\"]}\n"
                + "    when: {sourceCidrs: [10.0.0.0/33]}\n");
        var said = e.stream().map(PolicyError::toString).toList();
        assertEquals(6, e.size(), String.join("\n", said));
        assertTrue(said.get(0).contains("a.yaml:5") && said.get(0).contains("effect must be allow or deny, not 'alow'"), said.get(0));
        assertTrue(said.get(1).contains("a.yaml:6") && said.get(1).contains("unknown action 'wrte'"), said.get(1));
        assertTrue(said.get(2).contains("a.yaml:7") && said.get(2).contains("'**' must be a whole path segment"), said.get(2));
        assertTrue(said.get(3).contains("a.yaml:8") && said.get(3).contains("unknown key 'subjets'"), said.get(3));
        assertTrue(said.get(4).contains("a.yaml:8") && said.get(4).contains("names no subjects"), said.get(4));
        assertTrue(said.get(5).contains("a.yaml:9") && said.get(5).contains("10.0.0.0/33"), said.get(5));
    }

    /**
     * A record lists the rules that decided a request as their ids joined by commas: an id that is empty or holds a
     * comma or a space would make that list name rules that do not exist, so it is refused where it is written.
     */
    @Test
    void anIdThatWouldMakeTheRecordsListOfRulesSaySomethingElseIsRefused() {
        String rule = "    effect: allow\n    actions: [read]\n    resources: [\"file:///docs/**\"]\n    subjects: {subjects: [\"*\"]}\n";
        var e = errors("a.yaml", HEAD + "rules:\n"
                + "  - id: \"\"\n" + rule
                + "  - id: \"handbook,break-glass\"\n" + rule
                + "  - id: two words\n" + rule
                + "  - id: -leading\n" + rule
                + "  - id: ok.id_1:a/b-c\n" + rule);
        var said = e.stream().map(PolicyError::toString).toList();
        assertEquals(4, e.size(), String.join("\n", said));
        for (int i = 0; i < 4; i++) {
            assertTrue(said.get(i).contains("a.yaml:" + (4 + 5 * i)) && said.get(i).contains("rule id must be 1 to 128 letters, digits"),
                    said.get(i));
        }
        assertTrue(said.get(1).contains("not 'handbook,break-glass'"), said.get(1));
    }

    /** A file past the size a policy file may have is refused in our words, with its size and what to do. */
    @Test
    void aFileTooLargeIsRefusedSayingHowLargeAFileMayBe() {
        String big = HEAD + "rules: []\n# " + "x".repeat(1024 * 1024) + "\n";
        var said = errors("big.yaml", big).stream().map(PolicyError::toString).toList();
        assertEquals(List.of("big.yaml: a policy file holds at most 1,048,576 characters, this one "
                + String.format("%,d", big.length()) + ": split its rules into several files"), said);
    }

    /** The same mistake on every one of 500 rules: the first 100 are listed, then how many more there are. */
    @Test
    void aThousandProblemsAreListedAsTheFirstHundredAndACount() {
        var text = new StringBuilder(HEAD + "rules:\n");
        for (int i = 0; i < 500; i++) {
            text.append("  - id: r").append(i).append("\n    efect: allow\n    actions: [read]\n    resources: [\"file:///docs/**\"]\n"
                    + "    subjects: {subjects: [\"*\"]}\n");
        }
        var said = errors("a.yaml", text.toString()).stream().map(PolicyError::toString).toList();
        assertEquals(101, said.size());
        assertTrue(said.get(0).startsWith("a.yaml:5: unknown key 'efect'"), said.get(0));
        assertTrue(said.get(100).startsWith("a.yaml: and "), said.get(100));
        assertTrue(said.get(100).endsWith(" more problems, not listed: fix those above first"), said.get(100));
    }

    /** So do a limit's and a test's. */
    @Test
    void everyMistakeOfOneLimitAndOneTestIsReported() {
        var e = errors("a.yaml", HEAD + "limits:\n"
                + "  - id: l\n"
                + "    key: user\n"
                + "    capacity: -1\n"
                + "    refill: {tokens: 5, period: 1y}\n"
                + "    fail: maybe\n"
                + "tests:\n"
                + "  - name: t\n"
                + "    identity: {subject: u}\n"
                + "    action: raed\n"
                + "    uri: file:///a\n"
                + "    expect: yes\n"
                + "    time: tomorrow\n");
        var said = e.stream().map(PolicyError::toString).toList();
        assertEquals(7, e.size(), String.join("\n", said));
        assertTrue(said.get(0).contains("a.yaml:5") && said.get(0).contains("key must be subject, client, tenant or ip"), said.get(0));
        assertTrue(said.get(1).contains("a.yaml:6") && said.get(1).contains("capacity of limit 'l'"), said.get(1));
        assertTrue(said.get(2).contains("a.yaml:7") && said.get(2).contains("refill period of limit 'l'"), said.get(2));
        assertTrue(said.get(3).contains("a.yaml:8") && said.get(3).contains("fail must be closed or open"), said.get(3));
        assertTrue(said.get(4).contains("a.yaml:12") && said.get(4).contains("unknown action 'raed'"), said.get(4));
        assertTrue(said.get(5).contains("a.yaml:14") && said.get(5).contains("expect must be allow or deny"), said.get(5));
        assertTrue(said.get(6).contains("a.yaml:15") && said.get(6).contains("time must be ISO-8601"), said.get(6));
    }

    /**
     * A rule's, limit's, test's or time window's missing keys are reported together, beside its unknown keys and the
     * mistakes of the parts it does give, each with its line.
     */
    @Test
    void missingKeysAreReportedTogetherWithTheOtherMistakes() {
        assertEquals(List.of(new PolicyError("a.yaml", 4, "rule is missing required key 'effect'"),
                new PolicyError("a.yaml", 4, "rule is missing required key 'resources'"),
                new PolicyError("a.yaml", 4, "rule is missing required key 'subjects'")),
                errors("a.yaml", HEAD + "rules:\n  - {id: a1, actions: [read]}\n"));
        assertEquals(List.of("a.yaml:4: unknown key 'efect' in rule", "a.yaml:4: rule is missing required key 'actions'",
                "a.yaml:4: rule is missing required key 'effect'", "a.yaml:4: rule is missing required key 'resources'",
                "a.yaml:4: rule is missing required key 'subjects'"),
                errors("a.yaml", HEAD + "rules:\n  - {id: oops, efect: allow}\n").stream()
                        .map(e -> e.toString().replaceAll(" \\(allowed: .*", "")).toList());
        assertEquals(List.of(new PolicyError("a.yaml", 4, "rule is missing required key 'id'"),
                new PolicyError("a.yaml", 5, "rule at line 4: unknown action 'wrte' (list, read, subscribe or *)"),
                new PolicyError("a.yaml", 5, "rule at line 4: unknown action 'raed' (list, read, subscribe or *)")),
                errors("a.yaml", HEAD + "rules:\n  - effect: deny\n    actions: [wrte, raed]\n    resources: [\"**\"]\n"
                        + "    subjects: {roles: [\"*\"]}\n"));
        assertEquals(List.of(new PolicyError("a.yaml", 4, "limit is missing required key 'capacity'"),
                new PolicyError("a.yaml", 4, "limit is missing required key 'key'"),
                new PolicyError("a.yaml", 5, "refill of limit 'l' is missing required key 'period'"),
                new PolicyError("a.yaml", 5, "refill of limit 'l' is missing required key 'tokens'"),
                new PolicyError("a.yaml", 4, "limit 'l': fail must be closed or open, not 'maybe'")),
                errors("a.yaml", HEAD + "limits:\n  - {id: l, fail: maybe,\n     refill: {}}\n"));
        assertEquals(List.of(new PolicyError("a.yaml", 4, "test is missing required key 'action'"),
                new PolicyError("a.yaml", 4, "test is missing required key 'expect'"),
                new PolicyError("a.yaml", 4, "test is missing required key 'uri'"),
                new PolicyError("a.yaml", 4, "identity of test 't' is missing required key 'subject'")),
                errors("a.yaml", HEAD + "tests:\n  - {name: t, identity: {roles: [x]}}\n"));
    }

    /** A time window's days, times and zone are each checked, and each mistake reported at once. */
    @Test
    void everyMistakeOfOneTimeWindowIsReported() {
        var e = errors("w.yaml", HEAD + "rules:\n  - id: w\n    effect: deny\n    actions: [read]\n    resources: [\"**\"]\n"
                + "    subjects: {roles: [\"*\"]}\n    when:\n      timeWindow:\n"
                + "        days: [mon, funday, moonday]\n        from: \"25:00\"\n        to: \"8am\"\n        zone: Mars/Olympus\n");
        assertEquals(List.of(new PolicyError("w.yaml", 11, "rule 'w': unknown day 'funday' (mon, tue, wed, thu, fri, sat, sun)"),
                new PolicyError("w.yaml", 11, "rule 'w': unknown day 'moonday' (mon, tue, wed, thu, fri, sat, sun)"),
                new PolicyError("w.yaml", 12, "rule 'w': time of day must look like 08:00, not '25:00'"),
                new PolicyError("w.yaml", 13, "rule 'w': time of day must look like 08:00, not '8am'"),
                new PolicyError("w.yaml", 14, "rule 'w': unknown time zone 'Mars/Olympus'")), e);
        var missing = errors("w.yaml", HEAD + "rules:\n  - {id: w, effect: deny, actions: [read], resources: [\"**\"],"
                + " subjects: {roles: [\"*\"]}, when: {timeWindow: {days: [sat]}}}\n");
        assertEquals(List.of("timeWindow of rule 'w' is missing required key 'from'", "timeWindow of rule 'w' is missing required key 'to'",
                "timeWindow of rule 'w' is missing required key 'zone'"), missing.stream().map(PolicyError::message).toList());
    }

    /**
     * The mistakes of one test leave the rules whole, so the other tests are still judged: a failing test is reported
     * beside another test's missing {@code expect}, not only once that is fixed.
     */
    @Test
    void aFailingTestIsReportedBesideAnotherTestsMistakes() {
        var e = errors("t.yaml", HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]}}\n"
                + "tests:\n  - {name: no expectation, identity: {subject: u, roles: [x]}, action: read, uri: file:///a/b}\n"
                + "  - {name: wrong expectation, identity: {subject: u, roles: [y]}, action: read, uri: file:///a/b, expect: allow}\n");
        assertEquals(List.of(new PolicyError("t.yaml", 6, "test is missing required key 'expect'"),
                new PolicyError("t.yaml", 7, "test 'wrong expectation' expected allow but got deny (no rule matched)")), e);
        // A rule in error would make the tests' verdicts meaningless: then they are not judged.
        var broken = errors("t.yaml", HEAD + "rules:\n  - {id: r, effect: alow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]}}\n"
                + "tests:\n  - {name: reads, identity: {subject: u, roles: [x]}, action: read, uri: file:///a/b, expect: allow}\n");
        assertEquals(1, broken.size(), broken.toString());
    }

    /**
     * An empty list of days is a window never open: a deny with it would be dead, an allow never apply. It is refused,
     * as empty actions, resources and subject sets are. Empty scopes or sourceCidrs ask for nothing, as leaving them out
     * does, and disable nothing.
     */
    @Test
    void aListThatWouldMakeARuleMatchNothingIsRefused() {
        String rule = HEAD + "rules:\n  - id: closed-in-office-hours\n    effect: deny\n    actions: %s\n    resources: %s\n"
                + "    subjects: %s\n    when: {%s}\n";
        String window = "timeWindow: {days: %s, from: \"08:00\", to: \"18:00\", zone: UTC}";
        assertEquals(List.of(new PolicyError("w.yaml", 9, "rule 'closed-in-office-hours': timeWindow has no days, so the rule"
                + " would never apply (leave days out for every day of the week)")),
                errors("w.yaml", rule.formatted("[read]", "[\"**\"]", "{roles: [\"*\"]}", window.formatted("[]"))));
        assertTrue(errors("w.yaml", rule.formatted("[]", "[\"**\"]", "{roles: [\"*\"]}", "")).get(0).message().contains("has no actions"));
        assertTrue(errors("w.yaml", rule.formatted("[read]", "[]", "{roles: [\"*\"]}", "")).get(0).message().contains("has no resources"));
        assertTrue(errors("w.yaml", rule.formatted("[read]", "[\"**\"]", "{roles: [], groups: []}", "")).get(0).message()
                .contains("names no subjects"));

        var everyDay = parse("w.yaml", rule.formatted("[read]", "[\"**\"]", "{roles: [\"*\"]}", "scopes: [], sourceCidrs: []"));
        assertFalse(allowed(everyDay, who("u", "r"), Action.READ, "file:///a"), "the deny applies");
        var weekdays = parse("w.yaml", rule.formatted("[read]", "[\"**\"]", "{roles: [\"*\"]}", window.formatted("[wed]")));
        assertEquals(List.of("closed-in-office-hours"),
                weekdays.decide(who("u", "r"), Action.READ, UriCanonicalizer.canonicalize("file:///a"), FACTS).rules());
    }

    /**
     * A blank name would match a token carrying a blank claim, and one with spaces at its ends names nobody: each is
     * refused, in every list of names a caller is matched by, and in a test's identity too.
     */
    @Test
    void blankNamesAndNamesWithSpacesAtTheirEndsAreRefused() {
        var e = errors("b.yaml", HEAD + "rules:\n  - id: r\n    effect: allow\n    actions: [read]\n    resources: [\"**\"]\n"
                + "    subjects:\n      roles: [\"\"]\n      groups: [\"  \"]\n      subjects: [\" alice\"]\n"
                + "      clients: [\"app \"]\n      tenants: [\"\\t\"]\n    when: {scopes: [\"\", \"read \"]}\n");
        assertEquals(List.of(new PolicyError("b.yaml", 9, "an entry of roles must not be empty"),
                new PolicyError("b.yaml", 10, "an entry of groups must not be empty (it holds only white space)"),
                new PolicyError("b.yaml", 11, "an entry of subjects: ' alice' has spaces at its start or end"),
                new PolicyError("b.yaml", 12, "an entry of clients: 'app ' has spaces at its start or end"),
                new PolicyError("b.yaml", 13, "an entry of tenants must not be empty (it holds only white space)"),
                new PolicyError("b.yaml", 14, "an entry of scopes must not be empty"),
                new PolicyError("b.yaml", 14, "an entry of scopes: 'read ' has spaces at its start or end")), e);

        String rule = HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n";
        var test = errors("b.yaml", rule + "tests:\n  - name: t\n    identity: {subject: \" u\", tenant: \"\", roles: [x, \" \"],"
                + " groups: [\"g \"], scopes: [\"\"]}\n    action: read\n    uri: file:///a\n    expect: allow\n");
        assertEquals(List.of("subject: ' u' has spaces at its start or end",
                "tenant must not be empty", "an entry of roles must not be empty (it holds only white space)",
                "an entry of groups: 'g ' has spaces at its start or end", "an entry of scopes must not be empty"),
                test.stream().map(PolicyError::message).toList());
        assertTrue(test.stream().allMatch(x -> x.line() == 7), test.toString());
    }

    @Test
    void defaultIsDeny() {
        var set = parse("a.yaml", HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]}}\n");
        assertFalse(allowed(set, who("u", "y"), Action.READ, "file:///a/b"), "role does not match");
        assertFalse(allowed(set, who("u", "x"), Action.LIST, "file:///a/b"), "action does not match");
        assertFalse(allowed(set, who("u", "x"), Action.READ, "file:///b/c"), "resource does not match");
        assertTrue(allowed(set, who("u", "x"), Action.READ, "file:///a/b/c"));
        assertTrue(set.decide(who("u", "y"), Action.READ, UriCanonicalizer.canonicalize("file:///a/b"), FACTS).rules().isEmpty());
    }

    @Test
    void denyOverridesAllowRegardlessOfFileOrder() {
        String allow = HEAD + "rules:\n  - {id: allow-all, effect: allow, actions: [\"*\"], resources: [\"**\"], subjects: {roles: [\"*\"]}}\n";
        String deny = HEAD + "rules:\n  - {id: no-raw, effect: deny, actions: [read], resources: [\"file:///t/*/raw/**\"], subjects: {roles: [\"*\"]}}\n";
        for (var set : List.of(parse("1.yaml", allow, "2.yaml", deny), parse("1.yaml", deny, "2.yaml", allow))) {
            var d = set.decide(who("u", "r"), Action.READ, UriCanonicalizer.canonicalize("file:///t/x/raw/y/z"), FACTS);
            assertFalse(d.allowed());
            assertEquals(List.of("no-raw"), d.rules());
            assertTrue(allowed(set, who("u", "r"), Action.READ, "file:///t/x/summary"));
        }
    }

    @Test
    void placeholdersBindToTheCaller() {
        var set = parse("h.yaml", HEAD + "rules:\n  - {id: home, effect: allow, actions: [read], resources: [\"file:///home/${subject}/**\", \"file:///t/${tenant}/**\"], subjects: {roles: [\"*\"]}}\n");
        assertTrue(allowed(set, who("alice", "r"), Action.READ, "file:///home/alice/x"));
        assertFalse(allowed(set, who("alice", "r"), Action.READ, "file:///home/bob/x"));
        assertTrue(allowed(set, who("alice", "r"), Action.READ, "file:///t/acme/x"));
        assertFalse(allowed(set, who("alice", "r"), Action.READ, "file:///t/globex/x"));
        // A subject that looks like a wildcard or a path never widens the rule.
        assertFalse(allowed(set, who("*", "r"), Action.READ, "file:///home/bob/x"));
        assertFalse(allowed(set, who("..", "r"), Action.READ, "file:///home/x"));
    }

    @Test
    void scopeConditionsMustAllHold() {
        var set = parse("s.yaml", HEAD + "rules:\n  - {id: s, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [\"*\"]}, when: {scopes: [a, b]}}\n");
        var both = new Identity("u", null, null, Set.of("r"), Set.of(), Set.of("a", "b"));
        var one = new Identity("u", null, null, Set.of("r"), Set.of(), Set.of("a"));
        assertTrue(allowed(set, both, Action.READ, "file:///x"));
        assertFalse(allowed(set, one, Action.READ, "file:///x"));
    }

    @Test
    void singleSegmentAndAnyDepthWildcards() {
        var set = parse("w.yaml", HEAD + "rules:\n  - {id: w, effect: allow, actions: [read], resources: [\"file:///a/*.md\", \"git://*/main/**\"], subjects: {roles: [\"*\"]}}\n");
        assertTrue(allowed(set, who("u", "r"), Action.READ, "file:///a/x.md"));
        assertFalse(allowed(set, who("u", "r"), Action.READ, "file:///a/b/x.md"));
        assertTrue(allowed(set, who("u", "r"), Action.READ, "git://handbook/main/a/b"));
    }

    @Test
    void validationNamesFileLineAndProblem() {
        String unknown = errors("bad.yaml", HEAD + "rules:\n  - id: r\n    colour: red\n    effect: allow\n    actions: [read]\n    resources: [\"**\"]\n    subjects: {roles: [x]}\n")
                .get(0).toString();
        assertTrue(unknown.startsWith("bad.yaml:5: unknown key 'colour' in rule"), unknown);
        var dup = errors("a.yaml", HEAD + "rules:\n  - {id: same, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n",
                "b.yaml", HEAD + "rules:\n  - {id: same, effect: deny, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n");
        assertEquals("b.yaml", dup.get(0).file());
        assertEquals(4, dup.get(0).line());
        assertTrue(dup.get(0).message().contains("duplicate rule id 'same'") && dup.get(0).message().contains("a.yaml:4"));
    }

    @Test
    void rejectsEachKindOfMistake() {
        String rule = HEAD + "rules:\n  - {id: r, effect: %s, actions: %s, resources: %s, subjects: %s}\n";
        assertTrue(errors("x.yaml", rule.formatted("maybe", "[read]", "[\"**\"]", "{roles: [x]}")).get(0).message().contains("effect must be allow or deny"));
        assertTrue(errors("x.yaml", rule.formatted("allow", "[write]", "[\"**\"]", "{roles: [x]}")).get(0).message().contains("unknown action 'write'"));
        assertTrue(errors("x.yaml", rule.formatted("allow", "[read]", "[\"file:///a/b**\"]", "{roles: [x]}")).get(0).message().contains("'**' must be a whole path segment"));
        assertTrue(errors("x.yaml", rule.formatted("allow", "[read]", "[\"file:///a/[ab]\"]", "{roles: [x]}")).get(0).message().contains("not supported"));
        assertTrue(errors("x.yaml", rule.formatted("allow", "[read]", "[\"file:///${user}/x\"]", "{roles: [x]}")).get(0).message().contains("unknown placeholder ${user}"));
        assertTrue(errors("x.yaml", rule.formatted("allow", "[read]", "[\"**\"]", "{}")).get(0).message().contains("names no subjects"));
        assertTrue(errors("x.yaml", HEAD + "rules:\n  - &a {id: r, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n  - *a\n")
                .get(0).message().contains("anchors and aliases"));
        assertTrue(errors("x.yaml", HEAD + "kind: Policy\n").get(0).message().contains("duplicate key 'kind'"));
        assertTrue(errors("x.yaml", "apiVersion: quaestor/v2\nkind: Policy\n").get(0).message().contains("apiVersion must be quaestor/v1"));
        assertTrue(errors("x.yaml", HEAD + "rules: [\n").get(0).message().startsWith("invalid YAML"));
        assertTrue(errors("x.yaml", HEAD + "rules:\n  - !!python/object {id: r}\n").get(0).message().contains("not allowed"));
    }

    /**
     * A pattern is canonicalised like a URI, decoding each segment once: what is percent-encoded must not become a
     * dot-segment that climbs out of the folder, or a wildcard or placeholder the pattern's checks never saw.
     */
    /** A pattern ending in '/' would name the folder alone; a deny written so for a folder would protect nothing in it. */
    @Test
    void aPatternEndingInASlashIsRefusedWithWhatToWriteInstead() {
        String rule = HEAD + "rules:\n  - {id: hr-closed, effect: deny, actions: [read], resources: [\"%s\"], subjects: {roles: [\"*\"]}}\n";
        for (String pattern : List.of("file:///docs/hr/", "file:///", "db://records/")) {
            var e = errors("hr.yaml", rule.formatted(pattern));
            assertEquals(1, e.size(), pattern + ": " + e);
            String folder = pattern.substring(0, pattern.length() - 1);
            assertTrue(e.get(0).message().contains("ends in '/'") && e.get(0).message().contains("'" + folder + "/**'"),
                    e.get(0).toString());
        }
        var set = parse("hr.yaml", rule.formatted("file:///docs/hr/**"));
        assertFalse(allowed(set, who("u", "r"), Action.READ, "file:///docs/hr/salaries.csv"));
    }

    @Test
    void percentEncodingHidesNoDotSegmentWildcardOrPlaceholder() {
        String rule = HEAD + "rules:\n  - {id: public-docs, effect: allow, actions: [read], resources: [\"%s\"], subjects: {roles: [\"*\"]}}\n";
        for (String pattern : List.of("file:///docs/public/%2E%2E/**", "file:///docs/public/%2e%2E/secret.md",
                "file:///docs/public/.%2e/**", "file:///docs/public/%2E/**", "file:///docs/./public/**",
                "file:///docs/public/../**", "file://*/docs/public/%2E%2E/**", "file:///docs/public/%2A%2A",
                "file:///docs/public/%2A", "file:///docs/public/%2a.md", "file:///docs/home/%24%7Bsubject%7D/**",
                "file:///docs/home/$%7Bsubject}/**")) {
            var e = errors("public.yaml", rule.formatted(pattern));
            assertEquals(1, e.size(), pattern + ": " + e);
            assertEquals("public.yaml", e.get(0).file());
            assertTrue(e.get(0).message().startsWith("rule 'public-docs': ") && e.get(0).message().contains("'" + pattern + "'"),
                    e.get(0).toString());
            assertTrue(e.get(0).message().contains("dot-segment") || e.get(0).message().contains("percent-encoded"),
                    e.get(0).toString());
        }
        assertTrue(errors("public.yaml", rule.formatted("file:///docs/public/%2E%2E/**")).get(0).message()
                .contains("dot-segment '%2E%2E' in resource pattern 'file:///docs/public/%2E%2E/**'"));
        assertTrue(errors("public.yaml", rule.formatted("file:///docs/public/%2A%2A")).get(0).message()
                .contains("'*' is percent-encoded as '%2A' in resource pattern 'file:///docs/public/%2A%2A'"));

        // An ordinary encoded character is a character of the name, as in the URIs the pattern judges.
        var set = parse("public.yaml", rule.formatted("file:///docs/my%20notes/*.md"));
        assertTrue(allowed(set, who("u", "r"), Action.READ, "file:///docs/my%20notes/a.md"));
        assertFalse(allowed(set, who("u", "r"), Action.READ, "file:///docs/a.md"));
        assertFalse(allowed(set, who("u", "r"), Action.READ, "file:///docs/my%20notes/x/a.md"));
    }

    @Test
    void guardsAreReadAndCheckedStrictly() {
        String rule = HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n";
        var set = parse("g.yaml", rule + "guards:\n  - {id: trials, resources: [\"file:///docs/trials/**\"], actions: [read]}\n");
        assertEquals(1, set.guards().size());
        assertEquals("g.yaml:6", set.guards().get(0).origin());
        assertTrue(set.guards().get(0).covers(Action.READ, dev.quaestor.uri.UriCanonicalizer.canonicalize("file:///docs/trials/t/s.md")));
        assertFalse(set.guards().get(0).covers(Action.LIST, dev.quaestor.uri.UriCanonicalizer.canonicalize("file:///docs/trials/t/s.md")));
        assertTrue(errors("g.yaml", rule + "guards:\n  - {id: g, resources: [\"file:///home/${subject}/**\"]}\n").get(0).message()
                .contains("guard 'g': 'file:///home/${subject}/**' has a placeholder"));
        assertTrue(errors("g.yaml", rule + "guards:\n  - {id: g, resources: [\"**\"], on: gain}\n").get(0).message()
                .contains("unknown key 'on' in guard"));
        assertTrue(errors("g.yaml", rule + "guards:\n  - {id: g}\n").get(0).message()
                .contains("guard is missing required key 'resources'"));
        var dup = errors("g.yaml", rule + "guards:\n  - {id: g, resources: [\"**\"]}\n  - {id: g, resources: [\"**\"]}\n");
        assertTrue(dup.get(0).message().contains("duplicate guard id 'g' (first defined at g.yaml:6)"), dup.toString());
    }

    @Test
    void aFailingTestRejectsTheSet() {
        var e = errors("t.yaml", HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]}}\n"
                + "tests:\n  - name: wrong expectation\n    identity: {subject: u, roles: [y]}\n    action: read\n    uri: file:///a/b\n    expect: allow\n");
        assertEquals(1, e.size());
        assertEquals(6, e.get(0).line());
        assertTrue(e.get(0).message().contains("test 'wrong expectation' expected allow but got deny"));
    }

    /**
     * The same files get the same verdict whenever they are loaded: in a set with a time window, a test without a time
     * would pass in office hours and fail after them, so it is refused at any hour; with a time it is judged then.
     */
    @Test
    void aTestWithoutATimeIsRefusedInASetWithTimeWindows() {
        String office = HEAD + "rules:\n  - {id: office-hours, effect: allow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]},"
                + " when: {timeWindow: {from: \"08:00\", to: \"18:00\", zone: Europe/Zurich}}}\n";
        String test = "tests:\n  - name: %s\n    identity: {subject: u, roles: [x]}\n%s    action: read\n    uri: file:///a/b\n    expect: %s\n";
        var untimed = errors("t.yaml", office + test.formatted("reads in office hours", "", "allow"));
        assertEquals(List.of(new PolicyError("t.yaml", 6, "test 'reads in office hours' needs a time: the set has time windows"
                + " (rule 'office-hours' at t.yaml:4), so a test without one would pass or fail by the hour it is loaded at")), untimed);
        // Refused whichever way it would have gone at the hour it is loaded.
        assertEquals(1, errors("t.yaml", office + test.formatted("refused at night", "", "deny")).size());

        var set = parse("t.yaml", office + test.formatted("reads at ten", "    time: \"2026-03-04T10:00:00+01:00\"\n", "allow"));
        assertEquals(java.time.Instant.parse("2026-03-04T09:00:00Z"), set.tests().get(0).facts().time());
        var late = errors("t.yaml", office + test.formatted("reads at a quarter past six", "    time: \"2026-03-04T18:15:00+01:00\"\n", "allow"));
        assertTrue(late.get(0).message().contains("expected allow but got deny (no rule matched)"), late.toString());

        // Without a time window, the time decides nothing and a test need not give one.
        String plain = HEAD + "rules:\n  - {id: always, effect: allow, actions: [read], resources: [\"file:///a/**\"], subjects: {roles: [x]}}\n";
        assertEquals(1, parse("t.yaml", plain + test.formatted("reads", "", "allow")).tests().size());
    }

    @Test
    void aNulByteInAFileOrItsNameIsRefusedSoNoTwoFileSetsShareARevision() {
        String allow = HEAD + "rules:\n  - {id: allow-analysts, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [analyst]}}\n";
        String deny = HEAD + "rules:\n  - {id: deny-secret, effect: deny, actions: [read], resources: [\"file:///secret/**\"], subjects: {roles: [\"*\"]}}\n";
        assertEquals(PolicyLoader.revision(List.of(Map.entry("allow.yaml", allow), Map.entry("deny.yaml", deny))),
                PolicyLoader.revision(List.of(Map.entry("allow.yaml", allow + "\0deny.yaml\0" + deny))));
        assertEquals(List.of(new PolicyError("a\\0.yaml", 0, "a NUL byte in the file name: a policy file's name holds none")),
                errors("a\0.yaml", allow));
        assertEquals(List.of(new PolicyError("allow.yaml", 5, "a NUL byte: a policy file holds none")),
                errors("allow.yaml", allow + "\0deny.yaml\0" + deny));
    }

    private static final String ALLOW_ALL = HEAD + "rules:\n  - {id: allow-all, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [\"*\"]}}\n";
    private static final String DENY_RAW = HEAD + "rules:\n  - {id: no-raw, effect: deny, actions: [read], resources: [\"file:///t/*/raw/**\"], subjects: {roles: [\"*\"]}}\n";

    /**
     * What-if judges the files it is given with {@code parse}; a server reads a directory. A file the directory loader
     * would skip must not count in a what-if: its deny would vanish once deployed.
     */
    @Test
    void parseRefusesNamesADirectoryWouldNotRead() {
        for (String name : List.of("raw.YAML", "raw.Yml", ".raw.yaml", "raw.yaml.bak", "raw.yaml~", "raw.json", "sub/raw.yaml",
                "..data")) {
            var e = errors("allow.yaml", ALLOW_ALL, name, DENY_RAW);
            assertEquals(List.of(new PolicyError(name, 0, "not a policy file name, so a server would not read this file:"
                    + " policy files are named *.yaml or *.yml, in lower case, not starting with a dot")), e, name);
        }
        assertEquals(2, parse("allow.yaml", ALLOW_ALL, "deny.yml", DENY_RAW).files().size());
    }

    /** A name someone meant as a policy file refuses the set, rather than its rules being skipped in silence. */
    @Test
    void aDirectoryWithAFileMisnamedAsAPolicyFileIsRefused(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        for (String name : List.of("raw.YAML", "raw.Yml", ".raw.yaml", "raw.yaml.bak", "raw.yaml~", "#raw.yml#")) {
            Path dir = java.nio.file.Files.createDirectory(tmp.resolve("d" + Math.abs(name.hashCode())));
            java.nio.file.Files.writeString(dir.resolve("allow.yaml"), ALLOW_ALL);
            java.nio.file.Files.writeString(dir.resolve(name), DENY_RAW);
            var e = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(dir)).errors();
            assertEquals(List.of(new PolicyError(name, 0, "looks like a policy file but is not named as one, so it would not be"
                    + " read: policy files are named *.yaml or *.yml, in lower case, not starting with a dot (rename it, or move"
                    + " it out of the directory)")), e, name);
        }
        // Alone, it is named too, beside the directory having no policy file.
        Path alone = java.nio.file.Files.createDirectory(tmp.resolve("alone"));
        java.nio.file.Files.writeString(alone.resolve("raw.YAML"), DENY_RAW);
        var e = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(alone)).errors();
        assertEquals(List.of("raw.YAML", alone.toString()), e.stream().map(PolicyError::file).toList());

        // Names that are not mistakable for policy files stay ignored.
        Path plain = java.nio.file.Files.createDirectory(tmp.resolve("plain"));
        java.nio.file.Files.writeString(plain.resolve("allow.yaml"), ALLOW_ALL);
        java.nio.file.Files.writeString(plain.resolve("deny.yml"), DENY_RAW);
        java.nio.file.Files.writeString(plain.resolve("README.md"), "# policies\n");
        java.nio.file.Files.writeString(plain.resolve(".gitkeep"), "");
        java.nio.file.Files.createDirectory(plain.resolve("old.yaml"));
        assertEquals(List.of("allow.yaml", "deny.yml"), PolicyLoader.load(plain).files());
    }

    /**
     * An entry named as a policy file that cannot be read as a file (a link to nothing or to a directory, a pipe) refuses
     * the set, naming the file and what is wrong: skipped, its rules would be dropped in silence, a deny among them. A
     * link to a file is read as the file.
     */
    @Test
    void aPolicyFileThatCannotBeReadAsAFileRefusesTheSet(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path dir = java.nio.file.Files.createDirectory(tmp.resolve("policies"));
        java.nio.file.Files.writeString(dir.resolve("allow.yaml"), ALLOW_ALL);
        java.nio.file.Files.createSymbolicLink(dir.resolve("deny.yaml"), Path.of("../elsewhere/deny.yaml"));
        java.nio.file.Files.createSymbolicLink(dir.resolve("more.yml"), java.nio.file.Files.createDirectory(tmp.resolve("folder")));
        var e = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(dir)).errors();
        assertEquals(List.of(
                new PolicyError("deny.yaml", 0, "cannot be read as a policy file, so its rules would be skipped: a symbolic link to"
                        + " ../elsewhere/deny.yaml, which does not exist (a dangling link) (fix it, or remove it from the directory)"),
                new PolicyError("more.yml", 0, "cannot be read as a policy file, so its rules would be skipped: a symbolic link to "
                        + tmp.resolve("folder") + ", which is not a regular file but a directory (fix it, or remove it from the"
                        + " directory)")), e);

        java.nio.file.Files.delete(dir.resolve("more.yml"));
        java.nio.file.Files.createDirectory(tmp.resolve("elsewhere"));
        java.nio.file.Files.writeString(tmp.resolve("elsewhere/deny.yaml"), DENY_RAW);
        assertEquals(List.of("allow.yaml", "deny.yaml"), PolicyLoader.load(dir).files(), "a link to a file is read");

        Path fifo = dir.resolve("pipe.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        var p = assertThrows(PolicyValidationException.class, () -> PolicyLoader.load(dir)).errors();
        assertEquals(List.of("pipe.yaml: cannot be read as a policy file, so its rules would be skipped: not a regular file but a"
                + " pipe, socket or device (fix it, or remove it from the directory)"), p.stream().map(x -> x.file() + ": " + x.message())
                .toList(), "refused unread: a pipe would hold the reload");
    }

    /** The kubelet's own entries in a ConfigMap volume (..data, ..2026_…) are neither read nor refused. */
    @Test
    void aConfigMapVolumeLoadsItsVisibleFilesOnly(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        var volume = new dev.quaestor.support.ConfigMapVolume(tmp.resolve("policies"));
        volume.write(Map.of("allow.yaml", ALLOW_ALL, "deny.yaml", DENY_RAW));
        volume.write(Map.of("allow.yaml", ALLOW_ALL, "deny.yaml", DENY_RAW + "# reviewed\n"));
        try (var names = java.nio.file.Files.list(volume.dir())) {
            assertTrue(names.map(p -> p.getFileName().toString()).anyMatch(n -> n.startsWith("..") && !n.equals("..data")));
        }
        var set = PolicyLoader.load(volume.dir());
        assertEquals(List.of("allow.yaml", "deny.yaml"), set.files());
        assertEquals(parse("allow.yaml", ALLOW_ALL, "deny.yaml", DENY_RAW + "# reviewed\n").revision(), set.revision());
    }

    /**
     * Read in the middle of a ConfigMap update (the new directory in place, the visible links not yet fixed: the deny
     * moved to a new file that has no link yet), the set is the new one whole, never old links mixed with new files.
     */
    @Test
    void aConfigMapVolumeReadMidUpdateIsWhollyOneVersion(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        var volume = new dev.quaestor.support.ConfigMapVolume(tmp.resolve("policies"));
        volume.write(Map.of("allow.yaml", ALLOW_ALL, "deny.yaml", DENY_RAW));
        volume.swapOnly(Map.of("allow.yaml", ALLOW_ALL + "# moved the deny\n", "raw.yaml", DENY_RAW));
        var set = PolicyLoader.load(volume.dir());
        assertEquals(List.of("allow.yaml", "raw.yaml"), set.files());
        assertEquals(parse("allow.yaml", ALLOW_ALL + "# moved the deny\n", "raw.yaml", DENY_RAW).revision(), set.revision());
    }

    @Test
    void revisionChangesWithAnyEdit() {
        String a = HEAD + "rules:\n  - {id: r, effect: allow, actions: [read], resources: [\"**\"], subjects: {roles: [x]}}\n";
        assertEquals(parse("a.yaml", a).revision(), parse("a.yaml", a).revision());
        assertNotEquals(parse("a.yaml", a).revision(), parse("a.yaml", a + "# comment\n").revision());
    }
}
