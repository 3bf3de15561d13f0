package dev.quaestor.audit.read;

import dev.quaestor.support.Wait;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The places for exports and verifies: each cap holds, a place given back is free again, giving back twice is harmless;
 * a verify place given back goes to the one who waited for it, never to the one who just had it, and the queue has
 * its bounds.
 */
class LongReadsTest {

    private static LongReadConfig config(int exports, int exportsPerPerson, int verifies, int verifiesPerPerson) {
        return config(exports, exportsPerPerson, verifies, verifiesPerPerson, 0, Duration.ZERO);
    }

    private static LongReadConfig config(int exports, int exportsPerPerson, int verifies, int verifiesPerPerson, int verifyQueue,
            Duration verifyWait) {
        return new LongReadConfig() {
            public int exports() {
                return exports;
            }

            public int exportsPerPerson() {
                return exportsPerPerson;
            }

            public int exportQueue() {
                return 0;
            }

            public Duration exportWait() {
                return Duration.ZERO;
            }

            public int verifies() {
                return verifies;
            }

            public int verifiesPerPerson() {
                return verifiesPerPerson;
            }

            public int verifyQueue() {
                return verifyQueue;
            }

            public Duration verifyWait() {
                return verifyWait;
            }

            public int bundles() {
                return 2;
            }

            public int bundlesPerPerson() {
                return 1;
            }

            public int caseReads() {
                return 2;
            }

            public int caseReadsPerPerson() {
                return 1;
            }

            public Duration retryAfter() {
                return Duration.ofSeconds(7);
            }
        };
    }

    @Test
    void bundlesHaveTheirOwnCapsBesideExports() {
        var reads = new LongReads(config(1, 1, 1, 1), new SimpleMeterRegistry());
        assertNotNull(reads.take(LongReads.Kind.EXPORT, "ann").place());
        var mine = reads.take(LongReads.Kind.BUNDLE, "ann");
        assertNotNull(mine.place(), "an export at its cap takes no bundle place");
        var again = reads.take(LongReads.Kind.BUNDLE, "ann");
        assertNull(again.place(), "one bundle at a time for one person");
        assertTrue(again.refusal().reason().contains("evidence bundles"), again.refusal().reason());
        assertNotNull(reads.take(LongReads.Kind.BUNDLE, "ben").place(), "another person gets the second place");
        assertNull(reads.take(LongReads.Kind.BUNDLE, "cid").place(), "past the overall cap of two");
        mine.place().close();
        assertNotNull(reads.take(LongReads.Kind.BUNDLE, "cid").place(), "a place given back is taken again");
    }

    @Test
    void eachPersonAndTheReplicaHaveTheirCaps() {
        var metrics = new SimpleMeterRegistry();
        var reads = new LongReads(config(3, 2, 1, 1), metrics);
        var a1 = reads.take(LongReads.Kind.EXPORT, "ann");
        var a2 = reads.take(LongReads.Kind.EXPORT, "ann");
        var a3 = reads.take(LongReads.Kind.EXPORT, "ann");
        assertNotNull(a1.place());
        assertNotNull(a2.place());
        assertNull(a3.place(), "a third export of one person is past the per-person cap");
        assertTrue(a3.refusal().reason().contains("one person"), a3.refusal().reason());
        assertEquals(7, a3.refusal().retryAfterSeconds());
        var b1 = reads.take(LongReads.Kind.EXPORT, "ben");
        assertNotNull(b1.place(), "another person still gets a place");
        var c1 = reads.take(LongReads.Kind.EXPORT, "cid");
        assertNull(c1.place(), "past the overall cap, whoever asks");
        assertTrue(c1.refusal().reason().contains("on this server"), c1.refusal().reason());
        // Verifies have caps of their own: exports at their cap do not take them.
        var v1 = reads.take(LongReads.Kind.VERIFY, "cid");
        assertNotNull(v1.place());
        assertNull(reads.take(LongReads.Kind.VERIFY, "dan").place(), "one verify at a time");

        a1.place().close();
        a1.place().close(); // twice: no second release
        assertNotNull(reads.take(LongReads.Kind.EXPORT, "cid").place(), "a place given back is free again");
        assertNull(reads.take(LongReads.Kind.EXPORT, "dan").place(), "closing twice gave back one place, not two");

        assertEquals(1.0, metrics.get("quaestor.audit.long.reads.refused").tags("kind", "export", "cap", "person").counter().count());
        assertEquals(2.0, metrics.get("quaestor.audit.long.reads.refused").tags("kind", "export", "cap", "overall").counter().count());
        assertEquals(1.0, metrics.get("quaestor.audit.long.reads.refused").tags("kind", "verify", "cap", "overall").counter().count());
        assertEquals(3.0, metrics.get("quaestor.audit.long.reads.active").tags("kind", "export").gauge().value());
    }
    @Test
    void aVerifyPlaceGivenBackGoesToTheOneWhoWaitedNotToTheOneWhoJustHadIt() throws Exception {
        var reads = new LongReads(config(4, 2, 1, 1, 4, Duration.ofSeconds(20)), new SimpleMeterRegistry());
        var pool = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            LongReads.Place ann = reads.take(LongReads.Kind.VERIFY, "ann").place();
            assertNotNull(ann);
            var ben = pool.submit(() -> reads.take(LongReads.Kind.VERIFY, "ben"));
            Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(5), () -> reads.waiting(LongReads.Kind.VERIFY) >= 1);
            assertEquals(1, reads.waiting(LongReads.Kind.VERIFY));
            // ann gives the place back and asks again at once, as one who loops does: ben, who waited, gets it.
            ann.close();
            var annAgain = pool.submit(() -> reads.take(LongReads.Kind.VERIFY, "ann"));
            LongReads.Place bens = ben.get(5, java.util.concurrent.TimeUnit.SECONDS).place();
            assertNotNull(bens, "the one who waited is served");
            assertTrue(!annAgain.isDone() || annAgain.get().place() == null, "the one who just had it waits behind");
            bens.close();
            assertNotNull(annAgain.get(5, java.util.concurrent.TimeUnit.SECONDS).place(), "and is served next");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theVerifyQueueAndTheWaitAreBounded() throws Exception {
        // A wait long enough that ben is still waiting while cid asks, on a busy machine too.
        var reads = new LongReads(config(4, 2, 1, 1, 1, Duration.ofSeconds(2)), new SimpleMeterRegistry());
        var pool = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            assertNotNull(reads.take(LongReads.Kind.VERIFY, "ann").place());
            var ben = pool.submit(() -> reads.take(LongReads.Kind.VERIFY, "ben"));
            Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(5), () -> reads.waiting(LongReads.Kind.VERIFY) >= 1);
            assertEquals(1, reads.waiting(LongReads.Kind.VERIFY));
            var cid = reads.take(LongReads.Kind.VERIFY, "cid");
            assertNull(cid.place(), "past the queue's bound, refused at once");
            assertTrue(cid.refusal().reason().contains("wait for a place"), cid.refusal().reason());
            var bens = ben.get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertNull(bens.place(), "past the wait, refused");
            assertTrue(bens.refusal().reason().contains("of waiting"), bens.refusal().reason());
            assertNull(reads.take(LongReads.Kind.VERIFY, "ann").place(), "one who runs a verify does not also wait for one");
        } finally {
            pool.shutdownNow();
        }
    }
}
