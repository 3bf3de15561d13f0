package dev.quaestor.pipeline;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A subject's share of a mount's bulkhead: how many places it comes to, and that a subject holding none has no entry. */
class SubjectShareTest {

    @Test
    void theShareIsAFractionOfTheBulkheadAtLeastOnePlace() {
        assertEquals(16, SubjectShare.of("m", 64, 0.25).places());
        assertEquals(1, SubjectShare.of("m", 4, 0.25).places());
        assertEquals(2, SubjectShare.of("m", 4, 0.5).places());
        assertEquals(1, SubjectShare.of("m", 3, 0.1).places());
        // A share that comes to the whole bulkhead adds nothing: the bulkhead alone bounds the mount.
        assertNull(SubjectShare.of("m", 1, 0.25));
        assertNull(SubjectShare.of("m", 8, 1.0));
        assertThrows(IllegalArgumentException.class, () -> SubjectShare.of("m", 8, 0));
        assertThrows(IllegalArgumentException.class, () -> SubjectShare.of("m", 8, 1.5));
        assertThrows(IllegalArgumentException.class, () -> SubjectShare.of("m", 8, Double.NaN));
    }

    @Test
    void eachSubjectHoldsAtMostItsPlacesAndItsEntryGoesWithItsLast() {
        var share = new SubjectShare(2, 4);
        assertTrue(share.tryTake("mallory"));
        assertTrue(share.tryTake("mallory"));
        assertFalse(share.tryTake("mallory"), "past its share, with no more than a share left free");
        assertEquals(2, share.held("mallory"));
        assertTrue(share.tryTake("carol"), "another subject is not held to mallory's count");
        assertEquals(2, share.subjects());

        share.release("mallory");
        assertTrue(share.tryTake("mallory"), "a place given back may be taken again");
        share.release("mallory");
        share.release("mallory");
        share.release("carol");
        assertEquals(0, share.subjects(), "no entry is kept for a subject holding nothing");
        share.release("carol");
        assertEquals(0, share.held("carol"));
        assertEquals(0, share.subjects());
    }

    /** Alone on a mount a subject may use all of it but a share, which always stays free for another subject. */
    @Test
    void aSubjectAloneMayUseAllButAShareWhichStaysForOthers() {
        var share = new SubjectShare(16, 64);
        for (int i = 0; i < 48; i++) {
            assertTrue(share.tryTake("service"), "call " + (i + 1) + " of a subject alone on the mount");
        }
        assertFalse(share.tryTake("service"), "the last share of the bulkhead is kept for others");
        for (int i = 0; i < 16; i++) {
            assertTrue(share.tryTake("carol"), "another subject's call " + (i + 1) + " within its share");
        }
        assertFalse(share.tryTake("carol"), "carol past her share, with nothing more free");
        share.release("service");
        assertFalse(share.tryTake("service"), "a place given back by one over its share does not go to it again while"
                + " less than a share is free");
    }
}
