package dev.quaestor.review;

import dev.quaestor.evidence.check.Report;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The review's integrity line says what was checked, when (to the second), and how far signatures and time-stamps vouch. */
class IntegrityLineTest {

    static final Instant AT = Instant.parse("2026-11-29T00:15:03.391400960Z");

    @Test
    void aVerifiedLogSaysUpToWhichSeqItWasCheckedSignedAndAnchored() {
        var anchored = new Report.Summary("log-a", 1200, 1, 1200, "3", 12, 1180, 11, 1100, Instant.parse("2026-11-28T23:50:00.036Z"), 0, 40,
                false, null, 0);
        var plain = new Report.Summary("log-b", 7, 1, 7, "3", 0, 0, 0, 0, null, 0, 0, false, null, 0);
        assertEquals("log log-a: records up to seq 1200 (1200) verified at 2026-11-29T00:15:03Z; signed up to seq 1180; "
                + "anchored up to seq 1100, time-stamped at 2026-11-28T23:50:00Z | log log-b: records up to seq 7 (7) verified at "
                + "2026-11-29T00:15:03Z; signed up to seq 0; not anchored",
                IntegrityLine.of(new Report(List.of(anchored, plain), List.of(), List.of()), AT));
    }
}
