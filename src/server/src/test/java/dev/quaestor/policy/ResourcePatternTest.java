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

/**
 * The glob matcher gives the answers of the plain recursive definition of {@code *} and {@code **}, and never
 * needs more than (URI segments x pattern segments) steps to give them, however many {@code **} a pattern holds.
 */
class ResourcePatternTest {

    private static final Identity ALICE = new Identity("alice", null, "acme", Set.of(), Set.of(), Set.of());
    private static final Identity NOBODY = new Identity("nobody", null, null, Set.of(), Set.of(), Set.of());
    private static final String[] PATTERN_SEGMENTS = {"a", "b", "ab", "*", "a*", "*b", "*a*", "**", "**", "${subject}",
        "${tenant}", "x-${subject}"};
    private static final String[] URI_SEGMENTS = {"a", "b", "ab", "ba", "aab", "alice", "acme", "x-alice", "c"};

    /** The definition, as directly as it can be written: try every way a ** can end. Exponential; small inputs only. */
    private static boolean reference(List<String> pattern, int pi, List<String> uri, int ui, Identity who) {
        if (pi == pattern.size()) {
            return ui == uri.size();
        }
        String seg = pattern.get(pi);
        if (seg.equals("**")) {
            for (int k = ui; k <= uri.size(); k++) {
                if (reference(pattern, pi + 1, uri, k, who)) {
                    return true;
                }
            }
            return false;
        }
        return ui < uri.size() && referenceSegment(ResourcePattern.bind(seg, who), uri.get(ui))
                && reference(pattern, pi + 1, uri, ui + 1, who);
    }

    /** Glob within a segment, by regular expression: * is any run of characters. */
    private static boolean referenceSegment(String glob, String value) {
        if (glob == null) {
            return false;
        }
        var re = new StringBuilder();
        for (String part : glob.split("\\*", -1)) {
            if (re.length() > 0 || glob.startsWith("*")) {
                re.append(".*");
            }
            re.append(java.util.regex.Pattern.quote(part));
        }
        if (glob.equals("*")) {
            return true;
        }
        return value.matches(re.toString().replace("\\Q\\E", ""));
    }

    private static int steps(int result) {
        return result >= 0 ? result : -1 - result;
    }

    @Test
    void matchingAgreesWithTheBacktrackingDefinitionOnRandomPatternsAndUris() {
        var rnd = new Random(31);
        int checked = 0;
        int matched = 0;
        for (int round = 0; round < 4000; round++) {
            var pattern = new StringBuilder("file:///docs");
            int depth = rnd.nextInt(7);
            for (int i = 0; i < depth; i++) {
                pattern.append('/').append(PATTERN_SEGMENTS[rnd.nextInt(PATTERN_SEGMENTS.length)]);
            }
            ResourcePattern p = ResourcePattern.parse(pattern.toString());
            for (int q = 0; q < 25; q++) {
                var uri = new StringBuilder("file:///docs");
                int n = rnd.nextInt(8);
                for (int i = 0; i < n; i++) {
                    uri.append('/').append(URI_SEGMENTS[rnd.nextInt(URI_SEGMENTS.length)]);
                }
                CanonicalUri u = UriCanonicalizer.canonicalize(uri.toString());
                for (Identity who : List.of(ALICE, NOBODY)) {
                    boolean expected = reference(p.segments(), 0, u.segments(), 0, who);
                    int result = p.matchPath(u.segments(), who);
                    assertEquals(expected, result >= 0, p + " against " + u + " as " + who.subject());
                    assertEquals(expected, p.matches(u, who), p + " against " + u);
                    assertTrue(steps(result) <= u.segments().size() * p.segments().size(),
                            p + " against " + u + ": " + steps(result) + " steps");
                    checked++;
                    matched += expected ? 1 : 0;
                }
            }
        }
        // Both answers were exercised, often.
        assertTrue(matched > checked / 20 && matched < checked - checked / 20, matched + " of " + checked);
    }

    /** The review's patterns, at the URI length limit: the step bound holds and the wall time is printed. */
    @Test
    void adversarialPatternsAtTheUriLengthLimitStayWithinTheStepBound() {
        List<String> patterns = List.of(
                "file:///docs/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b",
                "file:///docs/**/a/**/a/**/b",
                "file:///docs/**/*a*/**/*a*/**/*a*/**/*a*/**/*a*/**/*a*/**/b",
                "file:///**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/c/d",
                "**");
        long worstNanos = 0;
        String worst = "";
        for (String text : patterns) {
            ResourcePattern p = ResourcePattern.parse(text);
            for (int n : new int[] {10, 20, 40, 80, 1200, maxSegments()}) {
                for (String end : List.of("c", "b")) {
                    String uri = "file:///docs/" + "a/".repeat(n) + end;
                    CanonicalUri u = UriCanonicalizer.canonicalize(uri);
                    long t0 = System.nanoTime();
                    int result = p.matchPath(u.segments(), ALICE);
                    long took = System.nanoTime() - t0;
                    long bound = (long) u.segments().size() * p.segments().size();
                    assertTrue(steps(result) <= bound, text + " at n=" + n + ": " + steps(result) + " steps, bound " + bound);
                    boolean expected = text.equals("**") || (end.equals("b") && !text.startsWith("file:///**"));
                    assertEquals(expected, result >= 0, text + " at n=" + n + " ending " + end);
                    if (took > worstNanos) {
                        worstNanos = took;
                        worst = text + " against " + u.segments().size() + " segments (" + uri.length() + " characters)";
                    }
                }
            }
        }
        System.out.printf("ResourcePattern adversarial worst: %.3f ms for %s%n", worstNanos / 1e6, worst);
        assertTrue(worstNanos < 2_000_000_000L, "worst " + worstNanos / 1e6 + " ms: " + worst);
    }

    /** Within one segment a glob with many stars against a long value: no blow-up either. */
    @Test
    void aManyStarGlobAgainstALongSegmentIsQuick() {
        String glob = "*a*a*a*a*a*a*a*a*a*b";
        String value = "a".repeat(4000) + "c";
        long t0 = System.nanoTime();
        assertFalse(ResourcePattern.segmentMatches(glob, value));
        assertTrue(ResourcePattern.segmentMatches(glob, "a".repeat(4000) + "b"));
        long took = System.nanoTime() - t0;
        System.out.printf("ResourcePattern many-star glob against a 4,001-character segment: %.3f ms%n", took / 1e6);
        assertTrue(took < 2_000_000_000L, took / 1e6 + " ms");
    }

    /**
     * The same through a whole decision: the rule index's trie walk (literal and glob children, ** buckets) and
     * the full check of each candidate, with the adversarial deny beside many glob rules on every level.
     */
    @Test
    void aDecisionUnderAnAdversarialPolicyAtTheUriLengthLimitIsQuick() {
        var yaml = new StringBuilder("apiVersion: quaestor/v1\nkind: Policy\nrules:\n");
        yaml.append("  - {id: all-docs, effect: allow, actions: [read], resources: [\"file:///docs/**\"], subjects: {roles: [\"*\"]}}\n");
        yaml.append("  - {id: adversary, effect: deny, actions: [read], resources: [\"file:///docs/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b\"], "
                + "subjects: {roles: [\"*\"]}}\n");
        for (int d = 1; d <= 40; d++) {
            yaml.append("  - {id: glob-").append(d).append(", effect: allow, actions: [read], resources: [\"file:///docs/")
                    .append("*/".repeat(d)).append("**/*a*/**/x\"], subjects: {roles: [\"*\"]}}\n");
        }
        PolicySet set = PolicyLoader.parse(List.of(Map.entry("adversarial.yaml", yaml.toString())), new ArrayList<>());
        var who = new Identity("mallory", null, null, Set.of("clinician"), Set.of(), Set.of());
        var facts = new Facts("10.0.0.1", Instant.now());
        long worstNanos = 0;
        for (String end : List.of("c", "b")) {
            var u = UriCanonicalizer.canonicalize("file:///docs/" + "a/".repeat(maxSegments()) + end);
            long t0 = System.nanoTime();
            Decision d = set.decide(who, Action.READ, u, facts);
            worstNanos = Math.max(worstNanos, System.nanoTime() - t0);
            assertEquals(end.equals("c"), d.allowed(), end + ": " + d.rules());
        }
        System.out.printf("PolicySet decision under the adversarial policy, worst: %.3f ms%n", worstNanos / 1e6);
        assertTrue(worstNanos < 2_000_000_000L, worstNanos / 1e6 + " ms");
    }

    /** As many a/ segments as fit with file:///docs/ and a last segment in the canonicaliser's length limit. */
    private static int maxSegments() {
        return (UriCanonicalizer.MAX_LENGTH - "file:///docs/".length() - 1) / 2;
    }

    @Test
    void aPatternWithAnUnboundPlaceholderBindsForNobody() {
        assertTrue(ResourcePattern.parse("file:///docs/tenants/${tenant}/**").bindsFor(ALICE));
        assertFalse(ResourcePattern.parse("file:///docs/tenants/${tenant}/**").bindsFor(NOBODY));
        assertTrue(ResourcePattern.parse("file:///docs/tenants/**").bindsFor(NOBODY));
    }
}
