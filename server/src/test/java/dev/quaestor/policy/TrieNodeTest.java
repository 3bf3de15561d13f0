package dev.quaestor.policy;

import dev.quaestor.uri.UriCanonicalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
}
