package dev.quaestor.evidence;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Reads an export (JSON Lines, docs/audit-format.md, section 6) and hands each line, with its line
 * number, to an {@link ExportSink}. It checks only that each line is well formed and has the names its
 * type needs; what the lines mean is the sink's business. Exports written by the version-1 server
 * ({@code chain} for {@code log}, {@code null} for absent fields, key lines with {@code keyId} and
 * {@code publicKey}) are read too.
 */
public final class ExportReader {

    /** The input is not an export: it cannot be read, or a line is malformed. */
    public static final class Unreadable extends Exception {
        public Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    private final ExportSink sink;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    private ExportReader(ExportSink sink) {
        this.sink = sink;
    }

    /** Reads every line of {@code in} into {@code sink}; returns the number of lines read. */
    public static long read(InputStream in, ExportSink sink) throws IOException, Unreadable {
        return new ExportReader(sink).readAll(in);
    }

    private long readAll(InputStream in) throws IOException, Unreadable {
        byte[] buf = new byte[1 << 16];
        int start = 0;
        int end = 0;
        long line = 0;
        while (true) {
            int nl = indexOf(buf, start, end);
            if (nl < 0) {
                // Move the partial line to the front, grow if it fills the buffer, and read more.
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                if (end == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    if (end > start) {
                        line(buf, start, end, ++line);
                    }
                    return line;
                }
                end += n;
                continue;
            }
            line(buf, start, nl, ++line);
            start = nl + 1;
        }
    }

    private static int indexOf(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void line(byte[] b, int from, int to, long line) throws Unreadable {
        String text = decode(b, from, to, line);
        if (text.isBlank()) {
            return;
        }
        Map<String, String> m;
        try {
            m = FlatJson.readAllowingNull(text, line);
        } catch (FlatJson.Malformed e) {
            throw new Unreadable(e.getMessage());
        }
        String type = m.remove("type");
        if (type == null) {
            throw unreadable(line, "the line has no \"type\"");
        }
        switch (type) {
            case "record" -> {
                String hash = m.remove("hash");
                if (hash == null) {
                    throw unreadable(line, "the record has no stored \"hash\"");
                }
                sink.record(m, hash, line);
            }
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

    private String decode(byte[] b, int from, int to, long line) throws Unreadable {
        boolean ascii = true;
        for (int i = from; i < to && ascii; i++) {
            ascii = b[i] >= 0;
        }
        if (ascii) {
            return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        }
        try {
            return utf8.decode(ByteBuffer.wrap(b, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            throw unreadable(line, "the line is not valid UTF-8 text");
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

    private static Unreadable unreadable(long line, String message) {
        return new Unreadable("line " + Plain.n(line) + ": " + message);
    }
}
