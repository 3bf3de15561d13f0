package dev.quaestor.evidence;

import dev.quaestor.evidence.write.FlatJsonWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The export's line format: written and read back unchanged; anything but a flat object of strings and numbers refused. */
public class FlatJsonTest {

    /** Random text with everything JSON must escape, and characters of one to four UTF-8 bytes. */
    public static String awkward(Random rnd, int length) {
        String[] pieces = {"a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u0001", "\u001f",
            "\u007f", "\u0080", "\u00e9", "\u2028", "\u2029", "\u20ac", "\uffff", "\ud83d\ude00", "\udbff\udfff", "\ud800\udc00",
            "=", ":", "-", "{", "}", ",", "[", "]"};
        var sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append(pieces[rnd.nextInt(pieces.length)]);
        }
        return sb.toString();
    }

    @Test
    void whatIsWrittenIsReadBackUnchanged() {
        var rnd = new Random(7);
        for (int i = 0; i < 2000; i++) {
            var m = new LinkedHashMap<String, Object>();
            m.put("type", "record");
            m.put(awkward(rnd, 1 + rnd.nextInt(4)), awkward(rnd, rnd.nextInt(20)));
            m.put("seq", (long) rnd.nextInt(1_000_000));
            String line = FlatJsonWriter.write(m);
            assertTrue(!line.contains("\n") && !line.contains("\u2028"), line);
            Map<String, String> back = FlatJson.read(line, 1);
            assertEquals(m.size(), back.size());
            for (var e : m.entrySet()) {
                assertEquals(e.getValue().toString(), back.get(e.getKey()));
            }
        }
    }

    @Test
    void numbersKeepTheTextTheyWereWrittenWith() {
        assertEquals(Map.of("a", "-0", "b", "1.50e+3", "c", "12"), FlatJson.read(" {\"a\" : -0 , \"b\":1.50e+3,\"c\":12}\r", 1));
        assertEquals(Map.of("s", "\u00e9\ud83d\ude00/"), FlatJson.read("{\"s\":\"\\u00e9\\ud83d\\ude00\\/\"}", 1));
        assertEquals(Map.of(), FlatJson.read("{}", 1));
    }

    @Test
    void anythingElseIsRefusedWithItsLine() {
        String[] bad = {"", "[]", "{\"a\":{}}", "{\"a\":[1]}", "{\"a\":true}", "{\"a\":null}", "{\"a\":1,\"a\":2}",
            "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"x\u0001\"}", "{\"a\":\"\\x\"}",
            "{\"a\":\"abc}", "{\"a\":1} x", "{\"a\":1 \"b\":2}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":+1}", "{a:1}",
            "{\"a\":\"\\u12\"}", "{\"a\":1,}", "{\"a\"}", "{\"a\":\"\ud800\"}", "{\"a\":'x'}"};
        for (String s : bad) {
            var e = assertThrows(FlatJson.Malformed.class, () -> FlatJson.read(s, 1234), s);
            assertTrue(e.getMessage().startsWith("line 1,234: "), e.getMessage());
            assertEquals(1234, e.line());
        }
        assertEquals("line 9: the value of \"a\" is true, false or null; only strings and numbers are allowed (at character 6)",
                assertThrows(FlatJson.Malformed.class, () -> FlatJson.read("{\"a\":true}", 9)).getMessage());
    }

    @Test
    void aUnicodeEscapeHasFourAsciiHexDigits() {
        assertEquals(Map.of("a", "alice"), FlatJson.read("{\"a\":\"\\u0061lice\"}", 1));
        for (String digits : new String[] {"\u0660\u0660\u0666\u0661", "\uff10\uff10\uff16\uff11", "00\u0666\u0661"}) {
            String s = "{\"a\":\"\\u" + digits + "lice\"}";
            var e = assertThrows(FlatJson.Malformed.class, () -> FlatJson.read(s, 1), s);
            assertTrue(e.getMessage().contains("\\u must be followed by four hex digits"), e.getMessage());
        }
    }

    @Test
    void nullIsAnAbsentNameOnlyWhenAskedFor() {
        assertEquals(Map.of("b", "x"), FlatJson.readAllowingNull("{\"a\":null,\"b\":\"x\"}", 1));
        assertThrows(FlatJson.Malformed.class, () -> FlatJson.readAllowingNull("{\"a\":null,\"a\":\"x\"}", 1));
        assertThrows(FlatJson.Malformed.class, () -> FlatJson.readAllowingNull("{\"a\":true}", 1));
    }

    @Test
    void theWriterRefusesWhatIsNotText() {
        assertThrows(IllegalArgumentException.class, () -> FlatJsonWriter.write(Map.of("a", "\ud800")));
        assertThrows(IllegalArgumentException.class, () -> FlatJsonWriter.write(Map.of("a", 1.5)));
    }
}
