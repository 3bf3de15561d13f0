package dev.quaestor.audit.record;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FieldHasherTest {

    private static final String KEY = "a2V5LW9uZS1rZXktb25lLWtleS1vbmUta2V5LW9uZQ==";

    @Test
    void hashesOnlyTheChosenFieldsStablyAndPerField() {
        var h = new FieldHasher(List.of("ip", "ua"), KEY);
        String a = h.apply("ip", "10.0.0.1");
        assertTrue(a.startsWith("hmac:") && a.length() == 5 + 64);
        assertEquals(a, h.apply("ip", "10.0.0.1"));
        assertNotEquals(a, h.apply("ua", "10.0.0.1"), "the field name is part of the input");
        assertNotEquals(a, new FieldHasher(List.of("ip"), "b3RoZXIta2V5LW90aGVyLWtleS1vdGhlci1rZXk=").apply("ip", "10.0.0.1"));
        assertEquals("alice", h.apply("subject", "alice"));
        assertEquals(null, h.apply("ip", null));
    }

    @Test
    void refusesFieldsThatMustStayReadableAndAMissingKey() {
        assertThrows(IllegalArgumentException.class, () -> new FieldHasher(List.of("subject"), KEY));
        assertThrows(IllegalArgumentException.class, () -> new FieldHasher(List.of("uri"), KEY));
        assertThrows(IllegalArgumentException.class, () -> new FieldHasher(List.of("ip"), null));
    }
}
