package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The index's shortcuts (principal buckets and their 64-bit summaries, hash-only steps through
 * literal segments, placeholders matched without binding) must give exactly what judging every
 * rule gives, for every kind of subject, and explain must list exactly the matching rules.
 */
class RuleIndexPrincipalsTest {

    private static final Facts FACTS = new Facts("10.0.0.1", Instant.parse("2026-03-04T10:00:00Z"));
    /** "Aa"/"BB" blocks give segments that share a String hash, so hash-only steps meet collisions. */
    private static final String[] SEGS = {"a", "b", "Aa", "BB", "AaBB", "BBAa", "u1", "u2", "acme", "x.md"};

    private static Set<String> pick(Random rnd, String prefix, int n, int max) {
        var out = new HashSet<String>();
        for (int i = 0; i < n; i++) {
            out.add(prefix + rnd.nextInt(max));
        }
        return out;
    }

    private static SubjectSet randomSubjects(Random rnd) {
        return switch (rnd.nextInt(7)) {
            // 150 roles: ids 64 apart share a summary bit and must still be told apart.
            case 0, 1 -> new SubjectSet(pick(rnd, "role", 1 + rnd.nextInt(3), 150), Set.of(), Set.of(), Set.of(), Set.of());
            case 2 -> new SubjectSet(Set.of(), pick(rnd, "group", 1, 5), Set.of(), Set.of(), Set.of());
            case 3 -> new SubjectSet(Set.of(), Set.of(), pick(rnd, "u", 1, 3), Set.of(), Set.of());
            case 4 -> new SubjectSet(Set.of(), Set.of(), Set.of(), Set.of("client" + rnd.nextInt(2)), Set.of());
            case 5 -> new SubjectSet(Set.of(), Set.of(), Set.of(), Set.of(), Set.of(rnd.nextBoolean() ? "acme" : "globex"));
            default -> new SubjectSet(Set.of(), rnd.nextBoolean() ? Set.of("*") : Set.of(), Set.of(), Set.of(),
                    rnd.nextBoolean() ? Set.of() : Set.of("*"));
        };
    }

    private static String randomPattern(Random rnd) {
        var sb = new StringBuilder(rnd.nextInt(10) == 0 ? "git://" : "file://");
        sb.append(rnd.nextInt(8) == 0 ? "*" : "");
        int depth = rnd.nextInt(4);
        for (int i = 0; i < depth; i++) {
            int k = rnd.nextInt(14);
            sb.append('/').append(k == 0 ? "*" : k == 1 ? "${subject}" : k == 2 ? "${tenant}" : k == 3 ? "pre-${subject}"
                    : SEGS[rnd.nextInt(SEGS.length)]);
        }
        if (rnd.nextBoolean()) {
            sb.append("/**");
            if (rnd.nextInt(6) == 0) {
                sb.append('/').append(SEGS[rnd.nextInt(SEGS.length)]);
            }
        }
        return sb.toString();
    }

    private static String randomUri(Random rnd) {
        var sb = new StringBuilder(rnd.nextInt(10) == 0 ? "git://" : "file://");
        int depth = 1 + rnd.nextInt(4);
        for (int i = 0; i < depth; i++) {
            sb.append('/').append(rnd.nextInt(12) == 0 ? "pre-u1" : SEGS[rnd.nextInt(SEGS.length)]);
        }
        return sb.toString();
    }

    private static List<Rule> randomRules(Random rnd, int n) {
        var rules = new ArrayList<Rule>();
        for (int i = 0; i < n; i++) {
            var actions = rnd.nextBoolean() ? EnumSet.of(Action.READ) : EnumSet.allOf(Action.class);
            var patterns = new ArrayList<ResourcePattern>();
            for (int p = 0, count = 1 + rnd.nextInt(2); p < count; p++) {
                patterns.add(ResourcePattern.parse(randomPattern(rnd)));
            }
            var when = rnd.nextInt(5) == 0 ? new Conditions(Set.of("admin"), List.of(), null) : Conditions.NONE;
            rules.add(new Rule("r" + i, rnd.nextInt(4) == 0 ? Effect.DENY : Effect.ALLOW, actions, patterns,
                    randomSubjects(rnd), when, "r.yaml:" + (i + 1)));
        }
        return rules;
    }

    private static Identity randomCaller(Random rnd) {
        String subject = rnd.nextInt(10) == 0 ? "*" : "u" + rnd.nextInt(3);
        return new Identity(subject, rnd.nextBoolean() ? "client" + rnd.nextInt(2) : null,
                rnd.nextInt(3) == 0 ? null : rnd.nextBoolean() ? "acme" : "globex",
                pick(rnd, "role", rnd.nextInt(4), 150), pick(rnd, "group", rnd.nextInt(2), 5),
                rnd.nextBoolean() ? Set.of("admin") : Set.of());
    }

    @Test
    void decisionsAndExplanationsAgreeWithJudgingEveryRule() {
        var rnd = new Random(2026);
        int allowed = 0;
        int deniedByRule = 0;
        for (int round = 0; round < 40; round++) {
            List<Rule> rules = randomRules(rnd, 5 + rnd.nextInt(120));
            var set = new PolicySet("rev", rules, List.of(), List.of(), List.of("r.yaml"));
            for (int q = 0; q < 300; q++) {
                Identity who = randomCaller(rnd);
                CanonicalUri uri = UriCanonicalizer.canonicalize(randomUri(rnd));
                Action a = rnd.nextBoolean() ? Action.READ : Action.LIST;
                var allows = new TreeSet<String>();
                var denies = new TreeSet<String>();
                for (Rule r : rules) {
                    if (r.matches(who, a, uri, FACTS)) {
                        (r.effect() == Effect.DENY ? denies : allows).add(r.id());
                    }
                }
                String what = a + " " + uri + " for " + who;
                Explanation e = set.explain(who, a, uri, FACTS);
                assertEquals(denies, new TreeSet<>(e.denyRules()), what);
                assertEquals(allows, new TreeSet<>(e.allowRules()), what);
                assertEquals(denies.isEmpty() ? List.of() : e.allowRules(), e.overriddenAllows(), what);
                Decision d = set.decide(who, a, uri, FACTS);
                assertEquals(denies.isEmpty() && !allows.isEmpty(), d.allowed(), what);
                if (!denies.isEmpty()) {
                    assertEquals(denies, new TreeSet<>(d.rules()), what);
                    deniedByRule++;
                } else if (!allows.isEmpty()) {
                    assertTrue(allows.containsAll(d.rules()) && !d.rules().isEmpty(), what);
                    assertTrue(d.rules().size() <= PolicySet.MAX_ALLOWS_RECORDED, what);
                    allowed++;
                } else {
                    assertTrue(d.rules().isEmpty(), what);
                }
                assertEquals(d.allowed(), e.decision().allowed(), what);
            }
        }
        // The corpus must exercise both outcomes, or the comparison proves little.
        assertTrue(allowed > 500 && deniedByRule > 200, allowed + " allowed, " + deniedByRule + " denied by a rule");
    }

    /**
     * The server reuses one Identity per verified token, and each index remembers recent callers' principal
     * ids by reference. More callers than the index remembers, each reused many times in random order and
     * against two policy sets, must get every answer that judging every rule gives.
     */
    @Test
    void reusedCallersGetTheirOwnAnswersFromEachSet() {
        var rnd = new Random(77);
        List<Rule> rulesA = randomRules(rnd, 150);
        List<Rule> rulesB = randomRules(rnd, 150);
        var a = new PolicySet("a", rulesA, List.of(), List.of(), List.of("r.yaml"));
        var b = new PolicySet("b", rulesB, List.of(), List.of(), List.of("r.yaml"));
        var callers = new ArrayList<Identity>();
        for (int i = 0; i < 600; i++) {
            callers.add(randomCaller(rnd));
        }
        int allowed = 0;
        for (int q = 0; q < 6000; q++) {
            Identity who = callers.get(rnd.nextInt(callers.size()));
            CanonicalUri uri = UriCanonicalizer.canonicalize(randomUri(rnd));
            boolean inA = rnd.nextBoolean();
            List<Rule> rules = inA ? rulesA : rulesB;
            boolean expected = false;
            boolean denied = false;
            for (Rule r : rules) {
                if (r.matches(who, Action.READ, uri, FACTS)) {
                    expected |= r.effect() == Effect.ALLOW;
                    denied |= r.effect() == Effect.DENY;
                }
            }
            boolean got = (inA ? a : b).decide(who, Action.READ, uri, FACTS).allowed();
            assertEquals(expected && !denied, got, uri + " for " + who + " in " + (inA ? "a" : "b"));
            allowed += got ? 1 : 0;
        }
        assertTrue(allowed > 300, allowed + " allowed: the corpus must exercise both outcomes");
    }

    @Test
    void rolesWhoseIdsShareASummaryBitDoNotShareRules() {
        var rules = new ArrayList<Rule>();
        for (int k = 0; k < 200; k++) {
            rules.add(new Rule("own-" + k, Effect.ALLOW, EnumSet.of(Action.READ),
                    List.of(ResourcePattern.parse("file:///p/" + k + "/**")),
                    new SubjectSet(Set.of("role-" + k), Set.of(), Set.of(), Set.of(), Set.of()), Conditions.NONE, "p.yaml:" + k));
        }
        var set = new PolicySet("rev", rules, List.of(), List.of(), List.of("p.yaml"));
        for (int k = 0; k < 200; k++) {
            var who = new Identity("u", null, null, Set.of("role-" + k), Set.of(), Set.of());
            for (int other : new int[] {k, (k + 64) % 200, (k + 128) % 200, (k + 1) % 200}) {
                var d = set.decide(who, Action.READ, UriCanonicalizer.canonicalize("file:///p/" + other + "/f"), FACTS);
                assertEquals(other == k, d.allowed(), "role-" + k + " on /p/" + other);
            }
        }
    }

    /**
     * Hundreds of principals on one path: their bucket is searched through its hash table, and
     * allows are recorded from the ids alone only where every entry is unconditional, exact and
     * covers the action; otherwise each entry is judged. Every caller must get exactly its own rule.
     */
    @Test
    void aPathSharedByManyPrincipalsGivesEachCallerExactlyItsOwnRule() {
        var rules = new ArrayList<Rule>();
        for (int k = 0; k < 300; k++) {
            var actions = k % 7 == 0 ? EnumSet.of(Action.LIST) : EnumSet.of(Action.READ, Action.LIST);
            var when = k % 5 == 0 ? new Conditions(Set.of("clinical"), List.of(), null) : Conditions.NONE;
            String pattern = k % 11 == 0 ? "file:///shared/*/notes/**" : "file:///shared/**";
            rules.add(new Rule("r-" + k, Effect.ALLOW, actions, List.of(ResourcePattern.parse(pattern)),
                    new SubjectSet(Set.of(), Set.of(), Set.of("u-" + k), Set.of(), Set.of()), when, "s.yaml:" + k));
        }
        var set = new PolicySet("rev", rules, List.of(), List.of(), List.of("s.yaml"));
        var uri = UriCanonicalizer.canonicalize("file:///shared/ward-3/notes/today.md");
        var elsewhere = UriCanonicalizer.canonicalize("file:///shared/ward-3/labs/today.md");
        int allowed = 0;
        for (int k = 0; k < 320; k++) {
            for (Set<String> scopes : List.of(Set.<String>of(), Set.of("clinical"))) {
                var who = new Identity("u-" + k, null, null, Set.of(), Set.of(), scopes);
                boolean expected = k < 300 && k % 7 != 0 && (k % 5 != 0 || !scopes.isEmpty());
                var d = set.decide(who, Action.READ, uri, FACTS);
                assertEquals(expected, d.allowed(), "u-" + k + " " + scopes);
                assertEquals(expected ? List.of("r-" + k) : List.of(), d.rules(), "u-" + k + " " + scopes);
                assertEquals(expected && k % 11 != 0, set.decide(who, Action.READ, elsewhere, FACTS).allowed(), "u-" + k + " elsewhere");
                allowed += expected ? 1 : 0;
            }
        }
        assertTrue(allowed > 400, allowed + " allowed");
    }

    @Test
    void aSegmentSharingAHashWithARulePathGetsNeitherItsAllowNorItsDeny() {
        var everyone = new SubjectSet(Set.of("*"), Set.of(), Set.of(), Set.of(), Set.of());
        var set = new PolicySet("rev", List.of(
                new Rule("allow-Aa", Effect.ALLOW, EnumSet.of(Action.READ), List.of(ResourcePattern.parse("file:///x/Aa/**"),
                        ResourcePattern.parse("file:///y/AaAa"), ResourcePattern.parse("file:///z/AaAa/*.md")), everyone, Conditions.NONE, "c.yaml:1"),
                new Rule("allow-w", Effect.ALLOW, EnumSet.of(Action.READ), List.of(ResourcePattern.parse("file:///w/**")), everyone,
                        Conditions.NONE, "c.yaml:2"),
                new Rule("deny-w-Aa", Effect.DENY, EnumSet.of(Action.READ), List.of(ResourcePattern.parse("file:///w/Aa/**")), everyone,
                        Conditions.NONE, "c.yaml:3")),
                List.of(), List.of(), List.of("c.yaml"));
        var who = new Identity("u", null, null, Set.of("r"), Set.of(), Set.of());
        assertTrue(decide(set, who, "file:///x/Aa/f").allowed());
        assertFalse(decide(set, who, "file:///x/BB/f").allowed());
        assertTrue(decide(set, who, "file:///y/AaAa").allowed());
        assertFalse(decide(set, who, "file:///y/BBBB").allowed());
        assertFalse(decide(set, who, "file:///y/AaBB").allowed());
        assertTrue(decide(set, who, "file:///z/AaAa/n.md").allowed());
        assertFalse(decide(set, who, "file:///z/BBBB/n.md").allowed());
        assertEquals(List.of("deny-w-Aa"), decide(set, who, "file:///w/Aa/f").rules());
        var d = decide(set, who, "file:///w/BB/f");
        assertTrue(d.allowed());
        assertEquals(List.of("allow-w"), d.rules());
    }

    private static Decision decide(PolicySet set, Identity who, String uri) {
        return set.decide(who, Action.READ, UriCanonicalizer.canonicalize(uri), FACTS);
    }
}
