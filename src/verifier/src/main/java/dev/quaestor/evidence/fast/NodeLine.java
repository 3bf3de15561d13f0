package dev.quaestor.evidence.fast;

import dev.quaestor.evidence.Decimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a stored-node line written in the writer's own layout,
 * {@code {"type":"node","log":"…","level":N,"index":N,"hash":"…"}}, without the general reader: an export
 * holds one for every 8 records or so. The log's name must be printable ASCII without quotes or
 * backslashes, the numbers plain decimals, and nothing else may be on the line; anything else is declined
 * and read by the general path, which gives the same values for the lines accepted here.
 */
public final class NodeLine {

    /** A node line read, and where it ends (its newline, or the end of the input). */
    public record Read(String log, int level, long index, String hash, int end) {
    }

    private static final byte[] START = "{\"type\":\"node\",\"log\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LEVEL = "\",\"level\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INDEX = ",\"index\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HASH = ",\"hash\":\"".getBytes(StandardCharsets.US_ASCII);

    private NodeLine() {
    }

    public static boolean startsNode(byte[] b, int from, int to) {
        return to - from >= START.length && Arrays.equals(b, from, from + START.length, START, 0, START.length);
    }

    /** The node on the line at {@code from} (the input ends at {@code to}), or null. */
    public static Read read(byte[] b, int from, int to) {
        if (!startsNode(b, from, to)) {
            return null;
        }
        int at = from + START.length;
        int logEnd = at;
        while (logEnd < to && b[logEnd] >= 0x20 && b[logEnd] < 0x7f && b[logEnd] != '"' && b[logEnd] != '\\') {
            logEnd++;
        }
        if (logEnd == at || !at(b, logEnd, to, LEVEL)) {
            return null;
        }
        String log = new String(b, at, logEnd - at, StandardCharsets.US_ASCII);
        at = logEnd + LEVEL.length;
        int levelEnd = digits(b, at, to);
        if (levelEnd < 0 || levelEnd - at > 2 || !at(b, levelEnd, to, INDEX)) {
            return null;
        }
        long level = Decimal.parse(new String(b, at, levelEnd - at, StandardCharsets.US_ASCII));
        at = levelEnd + INDEX.length;
        int indexEnd = digits(b, at, to);
        if (level > 63 || indexEnd < 0 || indexEnd - at > 18 || !at(b, indexEnd, to, HASH)) {
            return null;
        }
        long index = Decimal.parse(new String(b, at, indexEnd - at, StandardCharsets.US_ASCII));
        at = indexEnd + HASH.length;
        // 64 plain characters, the closing quote and brace, then the end of the line.
        if (at + 66 > to || b[at + 64] != '"' || b[at + 65] != '}' || (at + 66 < to && b[at + 66] != '\n')) {
            return null;
        }
        for (int i = at; i < at + 64; i++) {
            if (b[i] < 0x20 || b[i] >= 0x7f || b[i] == '"' || b[i] == '\\') {
                return null;
            }
        }
        return new Read(log, (int) level, index, new String(b, at, 64, StandardCharsets.US_ASCII), at + 66);
    }

    /** The end of a plain decimal number at {@code at} (no leading zero), or -1. */
    private static int digits(byte[] b, int at, int to) {
        int end = at;
        while (end < to && b[end] >= '0' && b[end] <= '9') {
            end++;
        }
        return end == at || (b[at] == '0' && end - at > 1) ? -1 : end;
    }

    private static boolean at(byte[] b, int at, int to, byte[] text) {
        return to - at >= text.length && Arrays.equals(b, at, at + text.length, text, 0, text.length);
    }
}
