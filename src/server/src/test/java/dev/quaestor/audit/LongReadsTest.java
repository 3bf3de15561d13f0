package dev.quaestor.audit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The places for exports and verifies: each cap holds, a place given back is free again, giving back twice is harmless. */
class LongReadsTest {

    private static LongReadConfig config(int exports, int exportsPerPerson, int verifies, int verifiesPerPerson) {
        return new LongReadConfig() {
            public int exports() {
                return exports;
            }

            public int exportsPerPerson() {
                return exportsPerPerson;
            }

            public int verifies() {
                return verifies;
            }

            public int verifiesPerPerson() {
                return verifiesPerPerson;
            }

            public Duration retryAfter() {
                return Duration.ofSeconds(7);
            }
        };
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
}
