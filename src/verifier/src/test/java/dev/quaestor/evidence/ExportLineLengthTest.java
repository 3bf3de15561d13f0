package dev.quaestor.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.fast.FastExportReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A line longer than {@link ExportReader#MAX_LINE} makes an export unreadable, on both readers alike, and neither
 * reads on into it: a file that is one endless line is refused after about a megabyte, not read until memory runs out.
 */
class ExportLineLengthTest {

    private interface Reader {
        long read(InputStream in, ExportSink sink) throws Exception;
    }

    private static final List<Reader> READERS = List.of(ExportReader::read, (in, sink) -> FastExportReader.read(in, sink, 0),
            (in, sink) -> FastExportReader.read(in, sink, 2));

    private static final String EXPECTED = "line 3: the line is longer than 1,048,576 bytes, the most an export's line may be";

    /** Never ends, never a newline; counts what was read from it. */
    private static final class EndlessLine extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) 'x');
            read += len;
            return len;
        }
    }

    @Test
    void anEndlessLineIsRefusedAfterTheLongestLineAllowed() throws Exception {
        for (Reader reader : READERS) {
            var endless = new EndlessLine();
            var records = new ArrayList<Long>();
            InputStream in = new SequenceInputStream(new ByteArrayInputStream(twoRecords().getBytes(StandardCharsets.UTF_8)), endless);
            var e = assertThrows(ExportReader.Unreadable.class, () -> reader.read(in, recordsTo(records)));
            assertEquals(EXPECTED, e.getMessage());
            assertEquals(List.of(1L, 2L), records, "the lines before it were read");
            assertTrue(endless.read < 8 * ExportReader.MAX_LINE, "read on into it: " + endless.read + " bytes");
        }
    }

    @Test
    void aLineOfTheLongestLengthIsReadAndOneByteMoreIsNot() throws Exception {
        String good = twoRecords().split("\n")[0];
        // JSON allows spaces between a name and its colon; the general path reads such a line as the writer's own.
        String longest = good.replaceFirst("\":", "\"" + " ".repeat(ExportReader.MAX_LINE - good.length()) + ":");
        assertEquals(ExportReader.MAX_LINE, longest.getBytes(StandardCharsets.UTF_8).length);
        for (Reader reader : READERS) {
            var records = new ArrayList<Long>();
            reader.read(new ByteArrayInputStream((twoRecords() + longest + "\n").getBytes(StandardCharsets.UTF_8)), recordsTo(records));
            assertEquals(List.of(1L, 2L, 3L), records);

            String over = (twoRecords() + longest.replaceFirst("\":", "\" :") + "\n" + good + "\n");
            var e = assertThrows(ExportReader.Unreadable.class,
                    () -> reader.read(new ByteArrayInputStream(over.getBytes(StandardCharsets.UTF_8)), recordsTo(new ArrayList<>())));
            assertEquals(EXPECTED, e.getMessage());
        }
    }

    private static String twoRecords() {
        var log = new TestLog(dev.quaestor.evidence.check.LogVerifierTest.KEY, "replica-a").appendTo(2, 1000);
        return String.join("\n", log.recordLines) + "\n";
    }

    private static ExportSink recordsTo(List<Long> lines) {
        return new ExportSink() {
            @Override
            public void record(CanonicalRecord record, String storedHash, long line) {
                lines.add(line);
            }
        };
    }
}
