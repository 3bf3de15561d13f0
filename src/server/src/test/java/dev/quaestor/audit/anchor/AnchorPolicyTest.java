package dev.quaestor.audit.anchor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which of a run of checkpoints (one every 10 s) get a time-stamp under each policy. */
class AnchorPolicyTest {

    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");

    /** The checkpoints (1..n, the k-th signed at T0 + 10 s * k) that the policy anchors, walking them as the anchorer does. */
    static List<Integer> anchored(AnchorPolicy p, int n) {
        var out = new ArrayList<Integer>();
        int since = 0;
        Instant last = T0;
        for (int k = 1; k <= n; k++) {
            since++;
            Instant signed = T0.plusSeconds(10L * k);
            if (p.due(since, signed, last)) {
                out.add(k);
                since = 0;
                last = signed;
            }
        }
        return out;
    }

    @Test
    void everyCheckpointByDefault() {
        assertEquals(List.of(1, 2, 3, 4, 5), anchored(new AnchorPolicy(Optional.empty(), Optional.empty()), 5));
    }

    @Test
    void everyNth() {
        assertEquals(List.of(3, 6, 9), anchored(new AnchorPolicy(Optional.of(3), Optional.empty()), 10));
        assertThrows(IllegalStateException.class, () -> new AnchorPolicy(Optional.of(0), Optional.empty()));
    }

    @Test
    void afterAnInterval() {
        assertEquals(List.of(6, 12, 18), anchored(new AnchorPolicy(Optional.empty(), Optional.of(Duration.ofMinutes(1))), 20));
        // The first checkpoint of all is anchored at once: there is nothing to count from.
        assertEquals(true, new AnchorPolicy(Optional.empty(), Optional.of(Duration.ofMinutes(1))).due(1, T0, null));
    }

    @Test
    void whicheverComesFirst() {
        assertEquals(List.of(4, 8, 12), anchored(new AnchorPolicy(Optional.of(4), Optional.of(Duration.ofMinutes(1))), 12));
        assertEquals(List.of(6, 12), anchored(new AnchorPolicy(Optional.of(10), Optional.of(Duration.ofMinutes(1))), 12));
    }
}
