package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditRow;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.QuoteMode;

/**
 * The one CSV form of audit records for people and their spreadsheets, shared by {@code /audit/export?format=csv} and
 * the console's CSV export: RFC 4180 (Commons CSV), CRLF line ends, a header row of field names, every present value
 * quoted (a quote doubled) and an absent one left empty.
 *
 * <p>A value a spreadsheet would run as a formula is written with a leading {@code '} so that it is shown as text, never
 * computed: record fields hold what callers sent (a refused URI, a user agent), and opening an export must not run
 * them. That is a value starting with {@code =}, {@code @}, a tab or a carriage return (OWASP's list), or with
 * {@code +} or {@code -} unless it is a number ({@code -32003}) or one token of letters, digits and {@code _ . ~}
 * that is not a cell reference (a session id such as {@code -Xk3f9}): such a token holds no further operator, so it
 * can compute nothing ({@code -A1-B1} and {@code -2-3} are quoted), call no function and reach nothing outside the
 * sheet, and left alone it stays findable, as the record has it. A cell reference is judged by its shape, in A1 or
 * R1C1 notation ({@code -A1}, {@code -xfd9}, {@code -R2C3}, {@code -A1.B}), and quoted. The last column,
 * {@value #GUARD_COLUMN}, names the fields of the row that were given the quote (empty when none), so that the file
 * says which cells differ from the record. This is the one change made to any value; the evidence export (JSON Lines)
 * keeps records exactly as hashed.
 */
public final class ExportCsv {

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setQuoteMode(QuoteMode.ALL_NON_NULL)
            .setRecordSeparator("\r\n").get();

    /** The last column: the fields of the row whose value was given a leading {@code '}, space-separated. */
    public static final String GUARD_COLUMN = "quote_added_to";

    /**
     * A {@code +} or {@code -} value that runs nothing: a number, or one token of letters, digits and {@code _ . ~}
     * (no further operator) that does not start with a cell reference: A1 ({@code A1}, {@code xfd9}) or R1C1
     * ({@code R2C3}, {@code R}, {@code C4}), whole or followed by anything but a letter, digit or {@code _}.
     */
    private static final Pattern INERT = Pattern.compile("[+-](?:\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?"
            + "|(?!(?:[A-Za-z]{1,3}\\d+|[Rr]\\d*(?:[Cc]\\d*)?|[Cc]\\d*)(?![A-Za-z0-9_]))[A-Za-z0-9_.~]*)");

    private final List<String> columns;
    private final CSVPrinter printer;
    private final Object[] row;

    /** Writes the header row of {@code columns} (plain field names) to {@code out}. */
    public ExportCsv(Writer out, List<String> columns) throws IOException {
        this.columns = List.copyOf(columns);
        this.row = new Object[this.columns.size() + 1];
        out.write(String.join(",", this.columns) + "," + GUARD_COLUMN);
        out.write("\r\n");
        this.printer = new CSVPrinter(out, FORMAT);
    }

    /** One row of a stored record: its field for each column, in the header's order. */
    public void write(AuditRow record) throws IOException {
        write(record::text);
    }

    /** One row: each column's value by its name (null: absent), in the header's order. */
    public void write(Function<String, String> valueOf) throws IOException {
        StringBuilder guarded = null;
        for (int i = 0; i < columns.size(); i++) {
            String v = valueOf.apply(columns.get(i));
            if (runs(v)) {
                guarded = (guarded == null ? new StringBuilder() : guarded.append(' ')).append(columns.get(i));
                v = "'" + v;
            }
            row[i] = v;
        }
        row[columns.size()] = guarded == null ? null : guarded.toString();
        printer.printRecord(row);
    }

    public void flush() throws IOException {
        printer.flush();
    }

    /** The value shown as text by a spreadsheet: a leading {@code '} before a formula's first character; null stays null. */
    static String defused(String v) {
        return runs(v) ? "'" + v : v;
    }

    /** Whether a spreadsheet would run the value as a formula. */
    static boolean runs(String v) {
        if (v == null || v.isEmpty()) {
            return false;
        }
        char c = v.charAt(0);
        return c == '=' || c == '@' || c == '\t' || c == '\r' || ((c == '+' || c == '-') && !INERT.matcher(v).matches());
    }
}
