package dev.quaestor.audit;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;

/**
 * The one CSV form of audit records for people and their spreadsheets, shared by {@code /audit/export?format=csv} and
 * the console's CSV export: RFC 4180 (Commons CSV), CRLF line ends, a header row of field names, every present value
 * quoted (a quote doubled) and an absent one left empty.
 *
 * <p>A value a spreadsheet would take for a formula (one that starts with {@code =}, {@code +}, {@code -}, {@code @},
 * a tab or a carriage return, as OWASP lists them) is written with a leading {@code '} so that it is shown as text,
 * never computed: record fields hold what callers sent (a refused URI, a user agent), and opening an export must not
 * run it. This is the one change made to any value; the evidence export (JSON Lines) keeps records exactly as hashed.
 */
public final class ExportCsv {

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setQuoteMode(QuoteMode.ALL_NON_NULL)
            .setRecordSeparator("\r\n").get();

    private final List<String> columns;
    private final CSVPrinter printer;
    private final Object[] row;

    /** Writes the header row of {@code columns} (plain field names) to {@code out}. */
    public ExportCsv(Writer out, List<String> columns) throws IOException {
        this.columns = List.copyOf(columns);
        this.row = new Object[this.columns.size()];
        out.write(String.join(",", this.columns));
        out.write("\r\n");
        this.printer = new CSVPrinter(out, FORMAT);
    }

    /** One row: the record's value for each column, in the header's order. */
    public void write(Map<String, String> record) throws IOException {
        write(record::get);
    }

    /** One row of a stored record: its field for each column, in the header's order. */
    public void write(AuditRow record) throws IOException {
        write(record::get);
    }

    private void write(Function<String, String> valueOf) throws IOException {
        for (int i = 0; i < row.length; i++) {
            row[i] = defused(valueOf.apply(columns.get(i)));
        }
        printer.printRecord(row);
    }

    public void flush() throws IOException {
        printer.flush();
    }

    /** The value shown as text by a spreadsheet: a leading {@code '} before a formula's first character; null stays null. */
    static String defused(String v) {
        if (v == null || v.isEmpty()) {
            return v;
        }
        char c = v.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + v : v;
    }
}
