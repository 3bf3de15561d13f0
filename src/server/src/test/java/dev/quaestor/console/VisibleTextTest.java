package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** A value the caller chose reads on the request page as the characters it holds, not as a browser would lay them out. */
class VisibleTextTest {

    @Test
    void charactersThatCannotBeSeenOrReorderTextAreWrittenOut() {
        // "Trojan Source": a right-to-left override makes "agent-gpj.exe" read as "agent-exe.jpg".
        assertEquals("agent-⟨U+202E⟩gpj.exe", VisibleText.of("agent-\u202Egpj.exe"));
        assertEquals("a⟨U+200B⟩b⟨U+000D⟩c⟨U+0000⟩", VisibleText.of("a\u200Bb\rc\u0000"));
        assertEquals("⟨U+2066⟩x⟨U+2069⟩", VisibleText.of("\u2066x\u2069"));
        assertEquals("a⟨U+2028⟩b⟨U+2029⟩", VisibleText.of("a\u2028b\u2029"), "line and paragraph separators");
    }

    @Test
    void ordinaryTextIsLeftAsItIs() {
        String text = "carol's client 1.2 — café 医生\n2 file:///docs/a.md\t✓ 😀";
        assertSame(text, VisibleText.of(text));
        assertEquals(null, VisibleText.of(null));
    }
}
