package dev.quaestor.console.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.ExportCsv;
import dev.quaestor.evidence.write.JsonLinesWriter;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Writes the records of a search in one {@link ExportFormat}, as they stream from the database: nothing but
 * the current request's records is held, so memory stays flat however many records there are.
 */
public final class SearchExport {

    /** Where the records come from, in the order the format needs (by request for OCSF, else by id). */
    @FunctionalInterface
    public interface Records {
        void forEach(Consumer<AuditRow> each) throws Exception;
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final String productVersion;

    public SearchExport(String productVersion) {
        this.productVersion = productVersion;
    }

    /** Whether the format needs every record of each request, grouped by request. */
    public static boolean byRequest(ExportFormat format) {
        return format == ExportFormat.OCSF;
    }

    /** Writes the export; returns how many items (records, or OCSF events) it holds. */
    public long write(ExportFormat format, Records records, OutputStream out) throws IOException {
        try {
            return switch (format) {
                case JSONL -> jsonl(records, out);
                case CSV -> csv(records, out);
                case OCSF -> ocsf(records, out);
            };
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static long jsonl(Records records, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        var lines = new JsonLinesWriter(w);
        long[] n = {0};
        run(records, r -> {
            try {
                lines.write("record", AuditRow.SHOWN_FIELDS, r::text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            n[0]++;
        });
        w.flush();
        return n[0];
    }

    private static long csv(Records records, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        var csv = new ExportCsv(w, AuditRow.EXPORTED_FIELDS);
        long[] n = {0};
        run(records, r -> {
            try {
                csv.write(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            n[0]++;
        });
        csv.flush();
        w.flush();
        return n[0];
    }

    private long ocsf(Records records, OutputStream out) throws IOException {
        var buffered = new BufferedOutputStream(out, 1 << 16);
        JsonGenerator g = JSON.createGenerator(buffered, JsonEncoding.UTF8);
        g.setRootValueSeparator(new SerializedString("\n"));
        var event = new OcsfEvent(productVersion);
        long[] n = {0};
        var groups = new OcsfEvent.RequestGroups(request -> {
            event.write(request, g);
            n[0]++;
        });
        run(records, r -> {
            try {
                groups.add(r);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        groups.flush();
        if (n[0] > 0) {
            g.writeRaw('\n');
        }
        g.flush();
        buffered.flush();
        return n[0];
    }

    private static void run(Records records, Consumer<AuditRow> each) throws IOException {
        try {
            records.forEach(each);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
