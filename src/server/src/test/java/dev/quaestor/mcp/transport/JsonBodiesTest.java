package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An MCP body is exactly one JSON value in well-formed UTF-8; what a lenient parser would make sense of is refused. */
class JsonBodiesTest {

    private static final JsonBodies BODIES = new JsonBodies(new ObjectMapper());
    private static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";

    private static byte[] bytes(Object... parts) {
        var out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) {
                out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            } else {
                for (int b : (int[]) p) {
                    out.write(b);
                }
            }
        }
        return out.toByteArray();
    }

    @Test
    void oneJsonValueInUtf8IsRead() {
        assertEquals("resources/read", BODIES.parse(bytes(READ)).path("method").asText());
        assertEquals("caf\u00e9 \ud83d\ude00", BODIES.parse(bytes("{\"t\":\"caf\u00e9 \ud83d\ude00\"}")).path("t").asText());
        assertNotNull(BODIES.parse(bytes(" \r\n\t[" + READ + "] \n")), "a batch, with whitespace around");
        assertEquals("\u0000", BODIES.parse(bytes("{\"t\":\"\\u0000\"}")).path("t").asText(), "NUL escaped is text like any other");
    }

    /** Why a body is refused goes on record: a fixed phrase per kind of fault, quoting nothing of the body. */
    @Test
    void aRefusedBodySaysWhyInAFixedPhrase() {
        assertNull(BODIES.read(bytes(READ)).problem());
        assertEquals("empty body", BODIES.read(new byte[0]).problem());
        assertEquals("not exactly one JSON value", BODIES.read(bytes("  \n")).problem());
        assertEquals("not well-formed UTF-8, or with a byte order mark or NUL", BODIES.read(READ.getBytes(StandardCharsets.UTF_16LE)).problem());
        assertEquals("not well-formed UTF-8, or with a byte order mark or NUL", BODIES.read(bytes(new int[] {0xEF, 0xBB, 0xBF}, READ)).problem());
        for (String notOne : new String[] {"{\"jsonrpc\":", READ + READ, READ + " trailing", "{\"a\":1,\"a\":2}"}) {
            var read = BODIES.read(bytes(notOne));
            assertNull(read.root(), notOne);
            assertEquals("not exactly one JSON value", read.problem(), notOne);
        }
    }

    @Test
    void anotherEncodingOrAByteOrderMarkIsRefused() {
        for (Charset cs : new Charset[] {StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16,
            Charset.forName("UTF-32LE"), Charset.forName("UTF-32BE")}) {
            assertNull(BODIES.parse(READ.getBytes(cs)), cs.name());
        }
        assertNull(BODIES.parse(bytes(new int[] {0xEF, 0xBB, 0xBF}, READ)), "UTF-8 with a byte order mark");
        assertNull(BODIES.parse(bytes("{\"t\":\"a", new int[] {0}, "\"}")), "a raw NUL");
    }

    @Test
    void illFormedUtf8IsRefused() {
        String before = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook";
        String after = "welcome.md\"}}";
        int[][] bad = {
            {0xC0, 0xAF}, // overlong '/'
            {0xC1, 0xBF}, // overlong
            {0xE0, 0x80, 0xAF}, // overlong '/', three bytes
            {0xF0, 0x80, 0x80, 0xAF}, // overlong '/', four bytes
            {0xED, 0xA0, 0x80}, // an encoded UTF-16 surrogate
            {0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
            {0xF8, 0x88, 0x80, 0x80, 0x80}, // five bytes
            {0x80}, // a stray continuation byte
            {0xC3}, // cut off
            {0xE2, 0x82}, // cut off
            {0xFF}, {0xFE}};
        for (int[] b : bad) {
            assertNull(BODIES.parse(bytes(before, b, after)), java.util.Arrays.toString(b));
            assertFalse(JsonBodies.wellFormedUtf8(bytes(b)), java.util.Arrays.toString(b));
        }
        assertNull(BODIES.parse(bytes(before, new int[] {0xE2, 0x82})), "cut off at the end of the body");
        // The boundaries of what is allowed.
        for (int[] good : new int[][] {{0xC2, 0x80}, {0xDF, 0xBF}, {0xE0, 0xA0, 0x80}, {0xED, 0x9F, 0xBF}, {0xEE, 0x80, 0x80},
            {0xF0, 0x90, 0x80, 0x80}, {0xF4, 0x8F, 0xBF, 0xBF}}) {
            assertTrue(JsonBodies.wellFormedUtf8(bytes(good)), java.util.Arrays.toString(good));
        }
    }

    @Test
    void anythingAfterTheFirstValueIsRefused() {
        assertNull(BODIES.parse(bytes(READ + READ)));
        assertNull(BODIES.parse(bytes(READ + "\n" + READ)));
        assertNull(BODIES.parse(bytes(READ + " x")));
        assertNull(BODIES.parse(bytes(READ + "}")));
        assertNull(BODIES.parse(bytes("1 2")));
        assertNull(BODIES.parse(bytes("")));
        assertNull(BODIES.parse(bytes("   ")));
    }

    @Test
    void aMemberNameTwiceInOneObjectIsRefused() {
        assertNull(BODIES.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{"
                + "\"uri\":\"file:///docs/handbook/welcome.md\",\"uri\":\"file:///docs/home/bob/notes.md\"}}")));
        assertNull(BODIES.parse(bytes("{\"id\":1,\"id\":2}")));
    }

    @Test
    void onlyUtf8MayBeDeclared() {
        assertTrue(JsonBodies.declaresUtf8(null));
        assertTrue(JsonBodies.declaresUtf8("application/json"));
        assertTrue(JsonBodies.declaresUtf8("application/json; charset=UTF-8"));
        assertTrue(JsonBodies.declaresUtf8("application/json;charset=\"utf-8\""));
        assertFalse(JsonBodies.declaresUtf8("application/json; charset=utf-16"));
        assertFalse(JsonBodies.declaresUtf8("application/json; charset=iso-8859-1"));
    }
}
