package dev.quaestor.provider.database;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.Base64;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Renders rows as JSON (one object per row, keyed by column label) or CSV (RFC 4180 through Commons
 * CSV, a header row, CRLF line ends, values exactly as stored). Numbers and booleans stay numbers and booleans in JSON; {@code json}/{@code
 * jsonb} columns are embedded as JSON; binary columns are base64; dates and times are ISO-8601;
 * SQL NULL is {@code null} in JSON and an empty field in CSV.
 */
final class RowWriter {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory JSON = MAPPER.getFactory();
    /**
     * RFC 4180 as Commons CSV writes it, the same library the audit exports use: a value is quoted only where it needs
     * to be (a comma, quote or line break; leading white space), and never changed. This is content served to a client, which gets the
     * database's values exactly; no formula guard, which is for exports of audit records opened in a spreadsheet.
     */
    private static final CSVFormat CSV = CSVFormat.RFC4180.builder().setRecordSeparator("\r\n").get();

    private RowWriter() {
    }

    static byte[] jsonObject(ResultSet rs) throws SQLException {
        var out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            writeObject(g, rs, rs.getMetaData());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** All remaining rows as a JSON array; at most {@code maxRows}, else {@link TooManyRowsException}. */
    static byte[] jsonArray(ResultSet rs, int maxRows) throws SQLException {
        var out = new ByteArrayOutputStream();
        ResultSetMetaData md = rs.getMetaData();
        int rows = 0;
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartArray();
            while (rs.next()) {
                if (++rows > maxRows) {
                    throw new TooManyRowsException(maxRows);
                }
                writeObject(g, rs, md);
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] csv(ResultSet rs, int maxRows) throws SQLException {
        var sb = new StringBuilder();
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        var row = new String[n];
        try (var printer = new CSVPrinter(sb, CSV)) {
            for (int i = 1; i <= n; i++) {
                row[i - 1] = md.getColumnLabel(i);
            }
            printer.printRecord((Object[]) row);
            int rows = 0;
            while (rs.next()) {
                if (++rows > maxRows) {
                    throw new TooManyRowsException(maxRows);
                }
                for (int i = 1; i <= n; i++) {
                    row[i - 1] = text(rs, md, i);
                }
                printer.printRecord((Object[]) row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The first column of the current row as bytes: binary as is, anything else as UTF-8 text. */
    static byte[] raw(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        if (isBinary(md.getColumnType(1))) {
            return rs.getBytes(1);
        }
        String s = text(rs, md, 1);
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static void writeObject(JsonGenerator g, ResultSet rs, ResultSetMetaData md) throws IOException, SQLException {
        g.writeStartObject();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            g.writeFieldName(md.getColumnLabel(i));
            writeValue(g, rs, md, i);
        }
        g.writeEndObject();
    }

    private static void writeValue(JsonGenerator g, ResultSet rs, ResultSetMetaData md, int i) throws IOException, SQLException {
        int type = md.getColumnType(i);
        String typeName = md.getColumnTypeName(i);
        switch (type) {
            case Types.BOOLEAN, Types.BIT -> {
                boolean b = rs.getBoolean(i);
                if (rs.wasNull()) {
                    g.writeNull();
                } else {
                    g.writeBoolean(b);
                }
                return;
            }
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.DECIMAL, Types.REAL,
                    Types.FLOAT, Types.DOUBLE -> {
                BigDecimal d = rs.getBigDecimal(i);
                if (d == null) {
                    g.writeNull();
                } else {
                    g.writeNumber(d);
                }
                return;
            }
            default -> {
            }
        }
        if (isBinary(type)) {
            byte[] bytes = rs.getBytes(i);
            if (bytes == null) {
                g.writeNull();
            } else {
                g.writeString(Base64.getEncoder().encodeToString(bytes));
            }
            return;
        }
        if ("json".equalsIgnoreCase(typeName) || "jsonb".equalsIgnoreCase(typeName)) {
            String s = rs.getString(i);
            if (s == null) {
                g.writeNull();
            } else {
                g.writeTree(MAPPER.readTree(s));
            }
            return;
        }
        String s = text(rs, md, i);
        if (s == null) {
            g.writeNull();
        } else {
            g.writeString(s);
        }
    }

    private static String text(ResultSet rs, ResultSetMetaData md, int i) throws SQLException {
        int type = md.getColumnType(i);
        if (isBinary(type)) {
            byte[] b = rs.getBytes(i);
            return b == null ? null : Base64.getEncoder().encodeToString(b);
        }
        switch (type) {
            case Types.DATE -> {
                var d = rs.getDate(i);
                return d == null ? null : d.toLocalDate().toString();
            }
            case Types.TIME -> {
                var t = rs.getTime(i);
                return t == null ? null : t.toLocalTime().toString();
            }
            case Types.TIMESTAMP -> {
                if ("timestamptz".equalsIgnoreCase(md.getColumnTypeName(i))) {
                    var z = rs.getObject(i, OffsetDateTime.class);
                    return z == null ? null : z.toString();
                }
                var t = rs.getTimestamp(i);
                return t == null ? null : t.toLocalDateTime().toString();
            }
            case Types.TIMESTAMP_WITH_TIMEZONE -> {
                var t = rs.getObject(i, OffsetDateTime.class);
                return t == null ? null : t.toString();
            }
            default -> {
                return rs.getString(i);
            }
        }
    }

    private static boolean isBinary(int type) {
        return type == Types.BINARY || type == Types.VARBINARY || type == Types.LONGVARBINARY || type == Types.BLOB;
    }

    /** A list query returned more rows than the mount serves in one resource. */
    static final class TooManyRowsException extends RuntimeException {
        TooManyRowsException(int maxRows) {
            super("query returned more than max-rows=" + maxRows + " rows", null, false, false);
        }
    }
}
