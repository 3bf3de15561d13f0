package dev.quaestor.audit.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.RecordField;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A value longer than its column is stored cut, and says so: a record never shows part of a value as the whole of it. */
class AuditRecordsTest {

    private static RecordText stored(AuditEvent e) {
        return AuditRecords.text(e, "log", 1, Instant.parse("2026-12-02T10:00:00Z"), FieldHasher.none());
    }

    @Test
    void aValueLongerThanItsColumnEndsSayingItWasCut() {
        String detail = "x".repeat(5000);
        String kept = stored(AuditEvent.of(AuditEvent.Kind.ADMIN, "r1").decision("ALLOW").outcome("ok").detail(detail).build())
                .value(RecordField.DETAIL);
        assertEquals(4096, kept.length());
        assertEquals("x".repeat(4096 - AuditRecords.CUT.length()) + AuditRecords.CUT, kept);

        String fits = "y".repeat(4096);
        assertEquals(fits, stored(AuditEvent.of(AuditEvent.Kind.ADMIN, "r2").decision("ALLOW").outcome("ok").detail(fits).build())
                .value(RecordField.DETAIL), "a value that fits is kept whole");
    }

    @Test
    void aCutNeverSplitsACharacterOfTwoUtf16Units() {
        // The cut would fall between the two halves of the last emoji: it is left out whole.
        String uri = "file:///" + "a".repeat(4096 - AuditRecords.CUT.length() - "file:///".length() - 1) + "\uD83D\uDE00".repeat(10);
        String kept = stored(AuditEvent.of(AuditEvent.Kind.OUTCOME, "r3").uri(uri).decision("ALLOW").outcome("ok").build())
                .value(RecordField.URI);
        assertTrue(kept.endsWith("a" + AuditRecords.CUT), kept.substring(kept.length() - 20));
        assertEquals(4095, kept.length());
    }
}
