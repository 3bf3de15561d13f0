package dev.quaestor.evidence.fast;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.FlatJson;
import dev.quaestor.evidence.FlatJsonTest;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.check.LogVerifierTest;
import dev.quaestor.evidence.write.ExportWriter;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast reading of record lines agrees with the general one ({@link FlatJson}, then
 * {@link RecordFormat#canonical}) on every line it accepts, and declines what it is not sure of.
 */
class RecordLineTest {

    static Map<String, String> randomRecord(Random rnd) {
        var r = new LinkedHashMap<String, String>();
        for (String f : RecordFormat.FIELDS) {
            if (rnd.nextInt(3) > 0) {
                r.put(f, FlatJsonTest.awkward(rnd, rnd.nextInt(12)));
            }
        }
        r.put("v", "2");
        r.put("log", "replica-" + FlatJsonTest.awkward(rnd, 2));
        r.put("seq", Integer.toString(1 + rnd.nextInt(1_000_000)));
        return r;
    }

    static String line(Map<String, String> r) throws Exception {
        var sb = new StringBuilder();
        new ExportWriter(sb).record(r, Hex.of(RecordFormat.leafHash(r)));
        return sb.substring(0, sb.length() - 1);
    }

    /** Every character outside printable ASCII written as a \\u escape (surrogate pairs as two). */
    static String escapeAll(String line) {
        var sb = new StringBuilder();
        for (char c : line.toCharArray()) {
            sb.append(c < 0x80 ? String.valueOf(c) : String.format("\\u%04X", (int) c));
        }
        return sb.toString().replace("/", "\\/");
    }

    static RecordLine.Read fast(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return new RecordLine().read(b, 0, b.length);
    }

    static byte[] general(String line) {
        var m = FlatJson.read(line, 1);
        m.remove("type");
        m.remove("hash");
        return CanonicalRecord.of(m).bytes();
    }

    @Test
    void itAgreesWithTheGeneralPathOnAwkwardValues() throws Exception {
        var rnd = new Random(11);
        for (int i = 0; i < 3000; i++) {
            var r = randomRecord(rnd);
            for (String line : new String[] {line(r), escapeAll(line(r))}) {
                RecordLine.Read read = fast(line);
                assertNotNull(read, line);
                assertArrayEquals(general(line), read.record().bytes(), line);
                assertArrayEquals(RecordFormat.canonical(r), read.record().bytes());
                assertEquals(r.get("log"), read.record().log());
                assertEquals(r.get("seq"), read.record().seq());
                assertEquals(Hex.of(RecordFormat.leafHash(r)), read.storedHash());
                assertEquals(r, read.record().fields());
            }
        }
    }

    @Test
    void itDeclinesWhatItIsNotSureOf() throws Exception {
        String good = line(TestLog.record("a", 1));
        assertNotNull(fast(good));
        assertNotNull(fast(good + "\n{\"type\":\"key\"}"));
        String[] declined = {
            good.replace(",\"log\"", ", \"log\""), // spacing
            good.replace("\"seq\":1,", "\"seq\":\"1\",").replace("{\"type\":\"record\",\"v\":\"2\",\"log\":\"a\",",
                    "{\"type\":\"record\",\"log\":\"a\",\"v\":\"2\","), // another order
            good.replace("\"seq\":1", "\"seq\":01"),
            good.replace("\"seq\":1", "\"seq\":1.0"),
            good.replace("\"subject\":\"alice\"", "\"subject\":\"\\ud800\""),
            good.replace("\"subject\":\"alice\"", "\"subject\":\"\\ud800\\u0041\""),
            good.replace("\"subject\":\"alice\"", "\"subject\":\"al\\xce\""),
            good.replace("\"subject\":\"alice\"", "\"subject\":\"al\nce\""),
            good.replace("\"subject\":\"alice\"", "\"subject\":\"alice\",\"subject\":\"bob\""),
            good.replace("\"subject\":\"alice\"", "\"subjekt\":\"alice\""),
            good.replace("\"v\":\"2\"", "\"v\":\"v1\""),
            good.replace("\"v\":\"2\",", ""), // no version
            good + "\r",
            good + " ",
            good.substring(0, good.length() - 1),
        };
        for (String line : declined) {
            assertNull(fast(line), line);
        }
        // Not UTF-8: declined here, refused by the general path.
        byte[] b = good.replace("alice", "al?ce").getBytes(StandardCharsets.UTF_8);
        b[good.indexOf("al?ce") + 2] = (byte) 0xC3;
        assertNull(new RecordLine().read(b, 0, b.length));
        byte[] overlong = good.replace("alice", "al??e").getBytes(StandardCharsets.UTF_8);
        overlong[good.indexOf("al??e") + 2] = (byte) 0xC0;
        overlong[good.indexOf("al??e") + 3] = (byte) 0xAF;
        assertNull(new RecordLine().read(overlong, 0, overlong.length));
    }

    @Test
    void aUnicodeEscapeOfOtherScriptsDigitsIsRefusedOnBothPaths() throws Exception {
        String good = line(TestLog.record("a", 1));
        assertNotNull(fast(good.replace("\"alice\"", "\"\\u0061lice\"")));
        for (String digits : new String[] {"\u0660\u0660\u0666\u0661", "\uff10\uff10\uff16\uff11"}) {
            String line = good.replace("\"alice\"", "\"\\u" + digits + "lice\"");
            assertNull(fast(line), line);
            assertThrows(FlatJson.Malformed.class, () -> general(line), line);
            var e = assertThrows(ExportReader.Unreadable.class, () -> FastExportReader.read(new java.io.ByteArrayInputStream(
                    (line + "\n").getBytes(StandardCharsets.UTF_8)), new ExportSink() {
                    }, 0), line);
            assertTrue(e.getMessage().contains("\\u must be followed by four hex digits"), e.getMessage());
        }
    }

    @Test
    void nodeLinesReadFastAgreeWithTheGeneralPath() throws Exception {
        var log = new TestLog(LogVerifierTest.KEY, "replica-a").appendTo(300, 1000);
        for (String line : log.nodeLines) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            NodeLine.Read fast = NodeLine.read(b, 0, b.length);
            assertNotNull(fast, line);
            var general = FlatJson.read(line, 1);
            assertEquals(general.get("log"), fast.log());
            assertEquals(general.get("level"), Integer.toString(fast.level()));
            assertEquals(general.get("index"), Long.toString(fast.index()));
            assertEquals(general.get("hash"), fast.hash());
        }
        String good = log.nodeLines.get(3);
        String[] declined = {good.replace(",\"level\"", ", \"level\""), good.replace("replica-a", "replica\\u002da"),
            good.replace("\"level\":4", "\"level\":04"), good.replace("\"level\":4", "\"level\":64"),
            good.replace("\"level\":4", "\"level\":\"4\""), good.replace("}", ",\"x\":1}"), good + " ", good + "\r",
            good.replace("replica-a", "r\u00e9plica")};
        for (String line : declined) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            assertNull(NodeLine.read(b, 0, b.length), line);
        }
    }

    @Test
    void aDeclinedLineIsStillReadOrRefusedByTheFastExportReader() throws Exception {
        String good = line(TestLog.record("a", 1));
        String spaced = good.replace(",\"", ", \"").replace("\":", "\" : ");
        var got = new java.util.ArrayList<CanonicalRecord>();
        FastExportReader.read(new java.io.ByteArrayInputStream((spaced + "\r\n" + good + "\n").getBytes(StandardCharsets.UTF_8)),
                new ExportSink() {
                    @Override
                    public void record(CanonicalRecord r, String storedHash, long line) {
                        got.add(r);
                    }
                }, 0);
        assertEquals(2, got.size());
        assertArrayEquals(got.get(0).bytes(), got.get(1).bytes());
        var e = assertThrows(ExportReader.Unreadable.class, () -> FastExportReader.read(new java.io.ByteArrayInputStream(
                (good + "\n" + good.replace("alice", "al\\ud800ce") + "\n").getBytes(StandardCharsets.UTF_8)), new ExportSink() {
                }, 2));
        assertTrue(e.getMessage().startsWith("line 2: a string holds a lone surrogate") || e.getMessage().startsWith("line 2: \\ud800"),
                e.getMessage());
    }
}
