package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Plain;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RecordWordsTest {

    @Test
    void controlAndFormatCharactersAreShownAsEscapes() {
        assertEquals("a\\nb\\u0007\\u2028", Plain.visible("a\nb\u0007\u2028"));
        // Right-to-left override and isolates reorder what a terminal shows; a zero-width space, a byte order mark and
        // a tag character hide in it.
        assertEquals("fdp.\\u202etxt", Plain.visible("fdp.\u202etxt"));
        assertEquals("\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u200b\\ufeff", Plain.visible("\u2066\u2067\u2068\u2069\u200e\u200f\u200b\ufeff"));
        assertEquals("x\\udb40\\udc01y", Plain.visible("x\udb40\udc01y"));
        // Letters, marks and symbols of any script stay as they are.
        assertEquals("jos\u00e9 \u05e9\u05dc\u05d5\u05dd \ud83d\ude00", Plain.visible("jos\u00e9 \u05e9\u05dc\u05d5\u05dd \ud83d\ude00"));
    }
}
