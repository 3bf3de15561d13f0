package dev.quaestor.evidence;

import dev.quaestor.evidence.v1.V1Checkpoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Reads an export (JSON Lines, docs/audit-format.md, section 6) into an {@link ExportSink}, line by line with line
 * numbers, checking only that each line is well formed and has the names its type needs. Version-1 exports
 * ({@code chain} for {@code log}, {@code null} for absent, keys by {@code keyId} and {@code publicKey}) are read too.
 * This is the plain reader ({@code verify --plain}); {@code fast.FastExportReader} makes the same calls, in parallel.
 */
public final class ExportReader {

    /** The input is not an export: a line is malformed. */
    public static final class Unreadable extends Exception {
        public Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** One line, read: a record and its stored hash, or another line's names and values, or why it cannot be read. */
    public record Line(long number, CanonicalRecord record, String storedHash, Map<String, String> other, String error) {

        /** Hands the line to {@code sink}; an unreadable line ends the export. */
        public void to(ExportSink sink) throws Unreadable {
            if (error != null) {
                throw unreadable(number, error);
            }
            if (record != null) {
                sink.record(record, storedHash, number);
            } else {
                ExportReader.other(other, number, sink);
            }
        }
    }

    /** The longest line, without newline: far above what the server writes, low enough to hold a few of a hostile file. */
    public static final int MAX_LINE = 1 << 20;

    /** Why a line longer than {@link #MAX_LINE} is not read. */
    public static final String TOO_LONG = "the line is longer than " + Plain.n(MAX_LINE) + " bytes, the most an export's line may be";

    private ExportReader() {
    }

    /** Reads every line of {@code in} into {@code sink}; returns the number of lines. */
    public static long read(InputStream in, ExportSink sink) throws IOException, Unreadable {
        byte[] buf = new byte[1 << 16];
        int size = 0;
        long lines = 0;
        boolean eof = false;
        while (!eof || size > 0) {
            if (!eof) {
                if (size == buf.length) {
                    buf = Arrays.copyOf(buf, 2 * buf.length); // a line longer than the buffer
                }
                int n = in.read(buf, size, buf.length - size);
                eof = n < 0;
                size += Math.max(n, 0);
            }
            int from = 0;
            for (int nl = 0; nl < size; nl++) {
                if (buf[nl] == '\n') {
                    take(parse(buf, from, nl, ++lines), sink);
                    from = nl + 1;
                }
            }
            if (eof && from < size) {
                take(parse(buf, from, size, ++lines), sink);
                from = size;
            }
            if (size - from > MAX_LINE) {
                throw unreadable(lines + 1, TOO_LONG); // before reading more of it
            }
            System.arraycopy(buf, from, buf, 0, size - from);
            size -= from;
        }
        return lines;
    }

    private static void take(Line line, ExportSink sink) throws Unreadable {
        if (line != null) {
            line.to(sink);
        }
    }

    /** Reads the line {@code b[from, to)} (without its newline); null if it is blank. */
    public static Line parse(byte[] b, int from, int to, long number) {
        if (to - from > MAX_LINE) {
            return new Line(number, null, null, null, TOO_LONG);
        }
        String text;
        try {
            text = decode(b, from, to);
        } catch (CharacterCodingException e) {
            return new Line(number, null, null, null, "the line is not valid UTF-8 text");
        }
        if (text.isBlank()) {
            return null;
        }
        Map<String, String> m;
        try {
            m = FlatJson.readAllowingNull(text, number);
        } catch (FlatJson.Malformed e) {
            return new Line(number, null, null, null, e.detail());
        }
        if ("record".equals(m.get("type")) && m.containsKey("hash")) {
            m.remove("type");
            String hash = m.remove("hash");
            return new Line(number, CanonicalRecord.of(m), hash, null, null);
        }
        return new Line(number, null, null, m, null);
    }

    private static String decode(byte[] b, int from, int to) throws CharacterCodingException {
        for (int i = from; i < to; i++) {
            if (b[i] < 0) {
                return Hex.utf8(b, from, to);
            }
        }
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** A line other than a record, by its type. */
    private static void other(Map<String, String> m, long line, ExportSink sink) throws Unreadable {
        String type = m.get("type");
        if (type == null) {
            throw unreadable(line, "the line has no \"type\"");
        }
        switch (type) {
            case "record" -> throw unreadable(line, "the record has no stored \"hash\"");
            case "checkpoint" -> {
                if (m.containsKey("note")) {
                    sink.checkpoint(need(m, "log", line), decimal(m, "size", line), m.get("note"), line);
                } else {
                    sink.checkpointV1(new V1Checkpoint(log(m, line), decimal(m, "seq", line), need(m, "hash", line),
                            need(m, "time", line), need(m, "keyId", line), need(m, "signature", line)), line);
                }
            }
            case "archive" -> sink.archive(log(m, line), decimal(m, "seq", line), need(m, "hash", line), line);
            case "node" -> {
                long level = decimal(m, "level", line);
                if (level > 63) {
                    throw unreadable(line, "a node's level is at most 63, not " + level);
                }
                sink.node(need(m, "log", line), (int) level, decimal(m, "index", line), need(m, "hash", line), line);
            }
            case "key" -> {
                if (m.containsKey("vkey")) {
                    sink.key(m.get("vkey"), line);
                } else {
                    sink.keyV1(need(m, "keyId", line), need(m, "publicKey", line), line);
                }
            }
            default -> throw unreadable(line, "unknown line type \"" + type + "\"");
        }
    }

    /** The log's name: {@code log}, or {@code chain} in lines written by the version-1 server. */
    private static String log(Map<String, String> m, long line) throws Unreadable {
        return m.containsKey("log") ? m.get("log") : need(m, "chain", line);
    }

    private static String need(Map<String, String> m, String name, long line) throws Unreadable {
        String v = m.get(name);
        if (v == null) {
            throw unreadable(line, "the line has no \"" + name + "\"");
        }
        return v;
    }

    private static long decimal(Map<String, String> m, String name, long line) throws Unreadable {
        long v = Decimal.parse(need(m, name, line));
        if (v < 0) {
            throw unreadable(line, "\"" + name + "\" must be a whole number, not " + m.get(name));
        }
        return v;
    }

    public static Unreadable unreadable(long line, String message) {
        return new Unreadable("line " + Plain.n(line) + ": " + message);
    }
}
