package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The index must give exactly the answers of judging every rule, and subtree verdicts must never lie. */
class RuleIndexTest {

    private static final Facts FACTS = new Facts("10.0.0.1", Instant.parse("2026-03-04T10:00:00Z"));
    private static final String[] SEGS = {"a", "b", "c", "alice", "bob", "x.md", "y.txt"};
    private static final String[] ROLES = {"r1", "r2", "r3"};

    private static String randomPattern(Random rnd) {
        var sb = new StringBuilder(rnd.nextInt(10) == 0 ? "git://" : "file://");
        sb.append(rnd.nextInt(8) == 0 ? "*" : "");
        int depth = rnd.nextInt(4);
        for (int i = 0; i < depth; i++) {
            int k = rnd.nextInt(12);
            sb.append('/').append(k == 0 ? "*" : k == 1 ? "${subject}" : k == 2 ? "*.md" : SEGS[rnd.nextInt(SEGS.length)]);
        }
        if (rnd.nextBoolean()) {
            sb.append("/**");
        }
        return sb.toString();
    }

    private static String randomUri(Random rnd) {
        var sb = new StringBuilder(rnd.nextInt(10) == 0 ? "git://" : "file://");
        int depth = 1 + rnd.nextInt(4);
        for (int i = 0; i < depth; i++) {
            sb.append('/').append(SEGS[rnd.nextInt(SEGS.length)]);
        }
        return sb.toString();
    }

    private static PolicySet randomSet(Random rnd, int n) {
        var yaml = new StringBuilder("apiVersion: quaestor/v1\nkind: Policy\nrules:\n");
        for (int i = 0; i < n; i++) {
            yaml.append("  - {id: r").append(i).append(", effect: ").append(rnd.nextInt(5) == 0 ? "deny" : "allow")
                    .append(", actions: [").append(rnd.nextBoolean() ? "read" : "\"*\"").append("], resources: [\"")
                    .append(randomPattern(rnd)).append("\"], subjects: {roles: [").append(ROLES[rnd.nextInt(3)]).append("]}}\n");
        }
        return PolicyLoader.parse(List.of(Map.entry("r.yaml", yaml.toString())), new ArrayList<>());
    }

    /** What the semantics say, by looking at every rule. */
    private static boolean bruteForce(PolicySet set, Identity who, Action a, CanonicalUri uri) {
        boolean allow = false;
        for (Rule r : set.rules()) {
            if (r.matches(who, a, uri, FACTS)) {
                if (r.effect() == Effect.DENY) {
                    return false;
                }
                allow = true;
            }
        }
        return allow;
    }

    @Test
    void indexAgreesWithJudgingEveryRule() {
        var rnd = new Random(42);
        for (int round = 0; round < 30; round++) {
            PolicySet set = randomSet(rnd, 5 + rnd.nextInt(60));
            for (int q = 0; q < 300; q++) {
                var who = new Identity(SEGS[rnd.nextInt(SEGS.length)], null, null, Set.of(ROLES[rnd.nextInt(3)]), Set.of(), Set.of());
                var uri = UriCanonicalizer.canonicalize(randomUri(rnd));
                Action a = rnd.nextBoolean() ? Action.READ : Action.LIST;
                assertEquals(bruteForce(set, who, a, uri), set.decide(who, a, uri, FACTS).allowed(), uri + " for " + who);
            }
        }
    }

    @Test
    void subtreeVerdictsNeverContradictDecisions() {
        var rnd = new Random(7);
        for (int round = 0; round < 30; round++) {
            PolicySet set = randomSet(rnd, 5 + rnd.nextInt(40));
            for (int q = 0; q < 100; q++) {
                var who = new Identity(SEGS[rnd.nextInt(SEGS.length)], null, null, Set.of(ROLES[rnd.nextInt(3)]), Set.of(), Set.of());
                var prefix = UriCanonicalizer.canonicalize(randomUri(rnd));
                SubtreeVerdict v = set.subtree(who, Action.READ, prefix, FACTS);
                if (v == SubtreeVerdict.MIXED) {
                    continue;
                }
                for (int k = 0; k < 20; k++) {
                    var below = prefix;
                    int extra = rnd.nextInt(3);
                    for (int e = 0; e < extra; e++) {
                        below = below.child(SEGS[rnd.nextInt(SEGS.length)]);
                    }
                    assertEquals(v == SubtreeVerdict.ALLOW_ALL, set.decide(who, Action.READ, below, FACTS).allowed(),
                            v + " for " + prefix + " but " + below);
                }
            }
        }
    }

    @Test
    void explainShowsOverriddenAllows() {
        var set = PolicyLoader.parse(List.of(Map.entry("e.yaml", "apiVersion: quaestor/v1\nkind: Policy\nrules:\n"
                + "  - {id: allow-trials, effect: allow, actions: [read], resources: [\"file:///t/**\"], subjects: {roles: [pi]}}\n"
                + "  - {id: no-raw, effect: deny, actions: [\"*\"], resources: [\"file:///t/*/raw/**\"], subjects: {roles: [\"*\"]}}\n")),
                new ArrayList<>());
        var who = new Identity("alice", null, null, Set.of("pi"), Set.of(), Set.of());
        var e = set.explain(who, Action.READ, UriCanonicalizer.canonicalize("file:///t/x/raw/a"), FACTS);
        assertFalse(e.decision().allowed());
        assertEquals(List.of("no-raw"), e.decision().rules());
        assertEquals(List.of("allow-trials"), e.overriddenAllows());
        var ok = set.explain(who, Action.READ, UriCanonicalizer.canonicalize("file:///t/x/summary"), FACTS);
        assertTrue(ok.decision().allowed());
        assertTrue(ok.overriddenAllows().isEmpty());
    }
}
