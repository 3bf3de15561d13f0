package dev.quaestor.policy.whatif;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The what-if table's columns: as wide as their widest cell, so a long rule id moves every row's next column alike. */
class TextTableTest {

    @Test
    void aLongCellWidensItsColumnOnEveryRow() {
        var out = new StringBuilder();
        new TextTable("subject", "#requests", "rule (proposed)", "example requests")
                .row("bob", 14, "clinicians-read-trial-summaries-in-the-oncology-wing", "r-1 r-2")
                .row("dave", 3, "(default deny)", "")
                .appendTo(out);
        assertEquals("""
                  subject  requests  rule (proposed)                                       example requests
                  bob            14  clinicians-read-trial-summaries-in-the-oncology-wing  r-1 r-2
                  dave            3  (default deny)
                """, out.toString());
    }

    @Test
    void aRowWithTheWrongNumberOfCellsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TextTable("a", "b").row("only one"));
    }
}
