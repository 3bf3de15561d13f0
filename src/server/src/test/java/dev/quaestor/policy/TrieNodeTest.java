package dev.quaestor.policy;

import dev.quaestor.uri.UriCanonicalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compact child table: growth, keys that share a hash, and the path check that guards hash-only steps. */
class TrieNodeTest {

    @Test
    void manyChildrenAreAllFoundAfterTheTableGrows() {
        var root = new TrieNode();
        var made = new TrieNode[5000];
        for (int i = 0; i < made.length; i++) {
            made[i] = root.child("proj-" + i);
        }
        for (int i = 0; i < made.length; i++) {
            assertSame(made[i], root.literalChecked("proj-" + i));
            assertSame(made[i], root.child("proj-" + i), "asking again must not add a second child");
        }
        assertNull(root.literalChecked("proj-5000"));
        assertNull(root.literalChecked("proj-"));
        int[] count = {0};
        root.forEachLiteral(c -> count[0]++);
        assertEquals(5000, count[0]);
    }

    @Test
    void keysSharingAHashAreKeptApart() {
        // "Aa" and "BB" (and every string made of those two blocks) have the same String.hashCode.
        assertEquals("Aa".hashCode(), "BB".hashCode());
        var root = new TrieNode();
        TrieNode aa = root.child("AaAa");
        TrieNode bb = root.child("BBBB");
        TrieNode ab = root.child("AaBB");
        assertNotSame(aa, bb);
        assertSame(aa, root.literal("AaAa"));
        assertSame(bb, root.literal("BBBB"));
        assertSame(ab, root.literal("AaBB"));
        assertNull(root.literal("BBAa"), "a node whose keys share a hash compares keys");
    }

    @Test
    void aSegmentThatOnlySharesAHashIsCaughtByThePathCheck() {
        var root = new TrieNode();
        TrieNode x = root.child("x");
        TrieNode aa = x.child("Aa");
        TrieNode md = aa.child("*.md");
        // The hash-only step lands on "Aa" for "BB": that is allowed, but the node must then refuse the path.
        assertSame(aa, x.literal("BB"));
        assertNull(x.literalChecked("BB"));
        assertTrue(md.reachedBy(UriCanonicalizer.canonicalize("file:///x/Aa/n.md").segments()));
        assertFalse(md.reachedBy(UriCanonicalizer.canonicalize("file:///x/BB/n.md").segments()));
        assertFalse(aa.reachedBy(List.of("y", "Aa")), "every literal ancestor is checked, not just the last");
        assertTrue(root.reachedBy(List.of()));
    }

    @Test
    void aSealedTableAnswersFromItsSlotsAndSkipsSubtreesWithNothingForTheCaller() {
        var root = new TrieNode();
        var entry = RuleIndex.Entry.of(new Rule("r", Effect.ALLOW, java.util.EnumSet.of(Action.READ), List.of(ResourcePattern.parse("file:///x/**")),
                new SubjectSet(java.util.Set.of("r"), java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of()),
                Conditions.NONE, "t.yaml:1"), ResourcePattern.parse("file:///x/**"), true);
        TrieNode aa = root.child("AaAa");
        TrieNode bb = root.child("BBBB");
        aa.child("deep").file(true, new int[] {3}, entry);
        bb.file(false, new int[] {3 + 64}, entry); // same summary bit as 3
        for (int i = 0; i < 100; i++) {
            root.child("p" + i).file(true, new int[] {5}, entry);
        }
        root.seal();
        long three = RuleIndex.Principals.bit(3);
        assertSame(aa, root.literalFor("AaAa", three), "found through its descendant's summary");
        assertSame(bb, root.literalFor("BBBB", three), "summary bits are shared; the bucket tells ids apart later");
        assertNull(root.literalFor("AaBB", three), "keys here share a hash, so an unknown colliding key is refused");
        assertNull(root.literalFor("p7", three), "nothing below p7 for this caller");
        assertSame(root.literalChecked("p7"), root.literalFor("p7", RuleIndex.Principals.bit(5)));
        assertNull(root.literalFor("p100", -1L));
        assertEquals(three | RuleIndex.Principals.bit(5), root.subtreeMask);
        assertThrows(IllegalStateException.class, () -> root.child("late"));
    }

    @Test
    void foldedSummariesNeverLoseASharedBit() {
        var rnd = new java.util.Random(31);
        for (int b = 0; b < 64; b++) {
            long bit = 1L << b;
            assertTrue((TrieNode.fold(bit) & TrieNode.fold(bit)) != 0, "bit " + b);
            assertEquals(0, TrieNode.fold(bit) & ~0x7fffffffL, "bit " + b + " stays below the USED bit");
        }
        for (int k = 0; k < 100_000; k++) {
            long a = rnd.nextLong() & rnd.nextLong() & rnd.nextLong();
            long c = 1L << rnd.nextInt(64) | 1L << rnd.nextInt(64);
            if ((a & c) != 0) {
                assertTrue((TrieNode.fold(a) & TrieNode.fold(c)) != 0, Long.toHexString(a) + " " + Long.toHexString(c));
            }
        }
    }

    /**
     * A glob subtree granted to forty principals gets a wide summary: it must admit each of them, wherever
     * filed below, and turn away most principals that have nothing there (a 64-bit summary would pass nearly all).
     */
    @Test
    void aWideSummaryAdmitsEveryPrincipalBelowAndTurnsAwayMostOthers() {
        var root = new TrieNode();
        TrieNode star = root.child("d").child("*");
        var rule = new Rule("r", Effect.ALLOW, java.util.EnumSet.of(Action.READ),
                List.of(ResourcePattern.parse("file:///d/*/reports/*.md")),
                new SubjectSet(java.util.Set.of("role"), java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of()),
                Conditions.NONE, "r.yaml:1");
        var entry = RuleIndex.Entry.of(rule, rule.resources().get(0), true);
        for (int id = 1; id <= 40; id++) {
            // Half at the end of the glob path, half one level up, so the summary must gather both.
            (id % 2 == 0 ? star.child("reports").child("*.md") : star.child("reports")).file(false, new int[] {id}, entry);
        }
        // The department holds twenty more principals elsewhere, so its summary differs from the glob's.
        for (int id = 100; id < 120; id++) {
            root.child("d").child("other").file(false, new int[] {id}, entry);
        }
        TrieNode reports = star.child("reports");
        root.seal();
        for (int id = 1; id <= 40; id++) {
            assertTrue(star.admits(TrieNodeTest.bits(id)), "principal " + id + " is filed below");
        }
        int admitted = 0;
        for (int id = 1000; id < 2000; id++) {
            admitted += star.admits(TrieNodeTest.bits(id)) ? 1 : 0;
        }
        for (int id = 100; id < 120; id++) {
            admitted += star.admits(bits(id)) ? 1 : 0;
        }
        assertTrue(admitted < 100, admitted + " of 1,020 absent principals admitted: the summary does not filter");
        // "reports" holds exactly the glob's principals: its own summary would repeat the glob's answer.
        assertTrue(reports.admits(bits(5000)), "a child with its parent's principals keeps no summary of its own");
        var few = new TrieNode();
        few.child("x").file(false, new int[] {7}, entry);
        few.seal();
        assertTrue(few.literalChecked("x").admits(bits(8)), "a node with few principals has no wide summary");
    }

    private static int[] bits(int id) {
        return new int[] {TrieNode.wideBit(id, 0), TrieNode.wideBit(id, 1)};
    }
}
