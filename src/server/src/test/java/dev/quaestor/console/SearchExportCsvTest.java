package dev.quaestor.console;

import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's CSV export writes records with the audit export's writer: quoted, formulas shown as text, numbers and
 * identifiers as the record has them, and which cells were guarded said in the file.
 */
class SearchExportCsvTest {

    @Test
    void theConsolesCsvDefusesAFormulaBehindATabOrCarriageReturnAndLeavesIdentifiersFindable() throws Exception {
        var out = new ByteArrayOutputStream();
        List<Map<String, String>> records = List.of(
                Map.of("v", "2", "request", "r-1", "kind", "DECISION", "uri", "\t=1+1", "ua", "\r=2", "subject", "-alice",
                        "session", "-Xk3f9", "error", "-32003"),
                Map.of("v", "2", "request", "r-2", "kind", "OUTCOME", "uri", "file:///docs/a,\"b\".md"));
        long n = new SearchExport("test").write(ExportFormat.CSV, each -> records.forEach(r -> each.accept(AuditRow.parse(null, r::get))), out);
        assertEquals(2, n);
        String csv = out.toString(StandardCharsets.UTF_8);
        assertTrue(csv.startsWith("v,log,seq,time,request,kind,"), csv);
        var rows = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(new StringReader(csv)).getRecords();
        assertEquals("'\t=1+1", rows.get(0).get("uri"));
        assertEquals("'\r=2", rows.get(0).get("ua"));
        assertEquals("-alice", rows.get(0).get("subject"), "an identifier stays findable");
        assertEquals("-Xk3f9", rows.get(0).get("session"));
        assertEquals("-32003", rows.get(0).get("error"), "a number is not a formula");
        assertEquals("ua uri", rows.get(0).get("quote_added_to"), "the file says which cells were given the quote");
        assertEquals("", rows.get(1).get("quote_added_to"));
        assertEquals("file:///docs/a,\"b\".md", rows.get(1).get("uri"));
        assertEquals("", rows.get(1).get("ua"), "absent");
    }
}
