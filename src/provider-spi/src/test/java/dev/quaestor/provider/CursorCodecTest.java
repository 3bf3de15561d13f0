package dev.quaestor.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class CursorCodecTest {

    @Test
    void fieldsComeBackAsEncoded() {
        String c = CursorCodec.encode("g1", "refs/heads/main", "docs/ünï code.md");
        assertEquals(List.of("refs/heads/main", "docs/ünï code.md"), CursorCodec.decode(c, "g1", 2));
        assertFalse(c.contains("="), "unpadded");
        assertFalse(c.contains("+") || c.contains("/"), "URL-safe");
    }

    @Test
    void foreignOrDamagedCursorsAreRefused() {
        String c = CursorCodec.encode("d1", "q", "10");
        assertThrows(InvalidCursorException.class, () -> CursorCodec.decode(c, "g1", 2), "another provider's tag");
        assertThrows(InvalidCursorException.class, () -> CursorCodec.decode(c, "d1", 3), "the wrong number of fields");
        assertThrows(InvalidCursorException.class, () -> CursorCodec.decode("not base64!", "d1", 2));
        String empty = Base64.getUrlEncoder().withoutPadding().encodeToString("d1\u0000\u000010".getBytes(StandardCharsets.UTF_8));
        assertThrows(InvalidCursorException.class, () -> CursorCodec.decode(empty, "d1", 2), "an empty field");
        assertThrows(IllegalArgumentException.class, () -> CursorCodec.encode("d1", "a\u0000b"), "a field with NUL");
    }
}
