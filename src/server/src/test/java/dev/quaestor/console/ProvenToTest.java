package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.SignedNote;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a request's page reads of the checkpoints its proof file is proven to: a checkpoint's {@code time} line is when
 * the log's key signed it and never makes it time-stamped; only a {@code rfc3161-timestamp} signature line holding a
 * token does.
 */
class ProvenToTest {

    private static final String ROOT = Base64.getEncoder().encodeToString(new byte[32]);

    private static String note(long size, String... signatures) {
        var sb = new StringBuilder("quaestor.audit/replica-a\n" + size + "\n" + ROOT + "\ntime 2026-11-30T10:00:00Z\n\n");
        sb.append(SignedNote.DASH).append("quaestor.audit AAAAAQ==\n");
        for (String s : signatures) {
            sb.append(s);
        }
        return sb.toString();
    }

    private static String block(long seq, String note) {
        return RecordProof.HEADER + "\nextra AAAA\nindex " + (seq - 1) + "\n\n" + note;
    }

    private static String stampLine() {
        return SignedNote.DASH + Anchor.NAME + " " + Anchor.field(new byte[] {0x30, 0x03, 0x02, 0x01, 0x01}) + "\n";
    }

    @Test
    void aCheckpointWithOnlyItsTimeLineIsNotTimeStamped() {
        var proven = ProvenTo.of(block(3, note(5)));
        assertEquals(1, proven.size());
        assertEquals(List.of("time 2026-11-30T10:00:00Z"), proven.get(0).extensions());
        assertFalse(proven.get(0).timeStamped(), "the time line is the signer's clock, not a TSA's token");
    }

    @Test
    void aCheckpointWithATokenLineIsTimeStamped() {
        var proven = ProvenTo.of(block(3, note(5, stampLine())));
        assertEquals(1, proven.size());
        assertTrue(proven.get(0).timeStamped());
        assertEquals("5", proven.get(0).size());
    }

    @Test
    void aLineOfThatNameHoldingNoTokenIsNotATimeStamp() {
        String notBase64 = SignedNote.DASH + Anchor.NAME + " !!!\n";
        String otherKeyId = SignedNote.DASH + Anchor.NAME + " " + Base64.getEncoder().encodeToString(new byte[] {1, 2, 3, 4, 5, 6}) + "\n";
        assertFalse(ProvenTo.of(block(3, note(5, notBase64))).get(0).timeStamped());
        assertFalse(ProvenTo.of(block(3, note(5, otherKeyId))).get(0).timeStamped());
    }

    @Test
    void eachBlockOfAFileIsReadOnItsOwn() {
        var proven = ProvenTo.of(block(3, note(5, stampLine())) + block(7, note(9)));
        assertEquals(2, proven.size());
        assertTrue(proven.get(0).timeStamped());
        assertFalse(proven.get(1).timeStamped(), "the other block's token does not count for this one");
    }
}
