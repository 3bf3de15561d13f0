package dev.quaestor.evidence.fast;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.FlatJson;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TreeHash;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a version-2 record line written in the writer's own layout straight into its canonical bytes,
 * without building strings: {@code {"type":"record",} then present fields in canonical order, each
 * {@code "name":"value"} (or a plain decimal number), then {@code "hash":"…"}, and nothing else, no
 * spaces. A value's canonical bytes are its UTF-8 bytes: copied as they are when it has no escapes
 * (after checking they are well-formed UTF-8), else decoded from its escapes by the same rules as
 * {@link FlatJson}'s reader. So it agrees with the general path ({@link FlatJson}, then
 * {@link RecordFormat#canonical}), which the tests check on awkward values; any line it is not sure of
 * (another order or spacing, a number that is not plain, half a surrogate pair, version 1) is declined
 * and read by the general path.
 */
public final class RecordLine {

    private static final List<String> FIELDS = RecordFormat.FIELDS;
    private static final byte[] START = "{\"type\":\"record\",".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HASH = "hash".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] NAMES = new byte[FIELDS.size()][];
    /** {@code name "="} and {@code name "=-\n"}, as written into the canonical bytes. */
    private static final byte[][] NAME_IS = new byte[FIELDS.size()][];
    private static final byte[][] ABSENT = new byte[FIELDS.size()][];
    /** Longer lines are left to the general path, which refuses them (the output buffer is sized for this). */
    private static final int MAX_LINE = ExportReader.MAX_LINE;

    static {
        for (int i = 0; i < NAMES.length; i++) {
            NAMES[i] = FIELDS.get(i).getBytes(StandardCharsets.US_ASCII);
            NAME_IS[i] = (FIELDS.get(i) + "=").getBytes(StandardCharsets.US_ASCII);
            ABSENT[i] = (FIELDS.get(i) + "=-\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** A line read: the record, its stored hash, and where the line ends (its newline, or the end of the input). */
    public record Read(CanonicalRecord record, String storedHash, int end) {
    }

    private byte[] out = new byte[1024];
    private int size;
    /** The last string read held escapes: its decoded bytes are in {@code scratch}. */
    private boolean escaped;
    private byte[] scratch = new byte[256];
    private int scratchLength;

    /**
     * The record on the line that starts at {@code from} (the input ends at {@code to}), or null if the
     * line is not in the writer's plain layout. It reads up to the closing brace, which must be followed
     * by a newline or the end of the input; it never accepts a line that spans a newline.
     */
    public Read read(byte[] b, int from, int inputEnd) {
        return read(b, from, inputEnd, true);
    }

    /** Whether the line at {@code from} starts as a record line in the writer's layout does. */
    public static boolean startsRecord(byte[] b, int from, int inputEnd) {
        return inputEnd - from >= START.length && Arrays.equals(b, from, from + START.length, START, 0, START.length);
    }

    /** As {@link #read(byte[], int, int)}; unless {@code keepBytes}, the record keeps only its leaf hash, not its bytes. */
    public Read read(byte[] b, int from, int inputEnd, boolean keepBytes) {
        if (!startsRecord(b, from, inputEnd)) {
            return null;
        }
        int at = from + START.length;
        int to = Math.min(inputEnd, from + MAX_LINE); // where reading stops
        size = 0;
        ensure(to - from + 32 * NAMES.length);
        String log = null;
        String seq = null;
        String time = null;
        int field = 0;
        while (true) {
            // A name: "…" with plain characters, then ':'.
            if (at >= to || b[at] != '"') {
                return null;
            }
            int nameEnd = at + 1;
            while (nameEnd < to && b[nameEnd] != '"') {
                nameEnd++;
            }
            if (nameEnd + 1 >= to || b[nameEnd + 1] != ':') {
                return null;
            }
            if (equals(b, at + 1, nameEnd, HASH)) {
                at = nameEnd + 2;
                break;
            }
            int f = field;
            while (f < NAMES.length && !equals(b, at + 1, nameEnd, NAMES[f])) {
                f++;
            }
            if (f == NAMES.length || (field == 0 && f != 0)) {
                return null; // unknown, repeated or out of order, or no version first: the general path says which
            }
            while (field < f) {
                absent(field++);
            }
            at = nameEnd + 2;
            // A value: a plain string, or a plain decimal number.
            int start;
            int end;
            byte[] src = b;
            if (at < to && b[at] == '"') {
                start = at + 1;
                end = string(b, start, to);
                if (end < 0) {
                    return null;
                }
                at = end + 1;
                if (escaped) {
                    src = scratch;
                    start = 0;
                    end = scratchLength;
                }
            } else {
                start = at;
                end = at;
                while (end < to && b[end] >= '0' && b[end] <= '9') {
                    end++;
                }
                if (end == start || (b[start] == '0' && end - start > 1)) {
                    return null;
                }
                at = end;
            }
            present(field, src, start, end);
            if (field == 0 && !(end - start == 1 && src[start] == '2')) {
                return null; // not version 2
            } else if (field == 1) {
                log = new String(src, start, end - start, StandardCharsets.UTF_8);
            } else if (field == 2) {
                seq = new String(src, start, end - start, StandardCharsets.UTF_8);
            } else if (field == 3) {
                time = new String(src, start, end - start, StandardCharsets.UTF_8);
            }
            field++;
            if (at >= to || b[at] != ',') {
                return null; // the hash must come last
            }
            at++;
        }
        // "hash":"<64 characters>"} and the end of the line.
        if (at + 67 > to || b[at] != '"' || b[at + 65] != '"' || b[at + 66] != '}' || field == 0
                || (at + 67 < inputEnd && b[at + 67] != '\n')) {
            return null;
        }
        if (string(b, at + 1, to) != at + 65 || escaped) {
            return null;
        }
        while (field < NAMES.length) {
            absent(field++);
        }
        String hash = new String(b, at + 1, 64, StandardCharsets.ISO_8859_1);
        CanonicalRecord r = keepBytes ? CanonicalRecord.ofV2(Arrays.copyOf(out, size), log, seq, time)
                : CanonicalRecord.ofV2Leaf(TreeHash.leaf(out, size), log, seq, time);
        return new Read(r, hash, at + 67);
    }

    /**
     * Reads the JSON string that starts at {@code from} (after its opening quote) and returns the index
     * of its closing quote, or -1 to decline it (a control character, bytes that are not well-formed
     * UTF-8, a malformed escape, half a surrogate pair). If it holds escapes, {@code escaped} is set and
     * its UTF-8 bytes, decoded, are left in {@code scratch}; otherwise its bytes in {@code b} are they.
     */
    private int string(byte[] b, int from, int to) {
        escaped = false;
        int i = from;
        while (i < to) {
            while (i < to && CLASS[b[i] & 0xff] == PLAIN) {
                i++; // the common case
            }
            if (i >= to) {
                break;
            }
            int c = b[i] & 0xff;
            switch (CLASS[c]) {
                case QUOTE -> {
                    return i;
                }
                case BACKSLASH -> {
                    return escapedString(b, from, i, to);
                }
                default -> {
                    int n = utf8(b, i, to);
                    if (n < 0) {
                        return -1;
                    }
                    i += n;
                }
            }
        }
        return -1;
    }

    /** The rest of a string from its first escape on, decoded into {@code scratch}. */
    private int escapedString(byte[] b, int from, int i, int to) {
        escaped = true;
        if (scratch.length < to - from) {
            scratch = new byte[to - from]; // decoding never makes a string longer
        }
        System.arraycopy(b, from, scratch, 0, i - from);
        scratchLength = i - from;
        while (i < to) {
            int c = b[i] & 0xff;
            switch (CLASS[c]) {
                case PLAIN -> scratch[scratchLength++] = b[i++];
                case QUOTE -> {
                    return i;
                }
                case BACKSLASH -> {
                    if (i + 1 >= to) {
                        return -1;
                    }
                    int e = b[i + 1];
                    i += 2;
                    switch (e) {
                        case '"', '\\', '/' -> scratch[scratchLength++] = (byte) e;
                        case 'b' -> scratch[scratchLength++] = '\b';
                        case 'f' -> scratch[scratchLength++] = '\f';
                        case 'n' -> scratch[scratchLength++] = '\n';
                        case 'r' -> scratch[scratchLength++] = '\r';
                        case 't' -> scratch[scratchLength++] = '\t';
                        case 'u' -> {
                            int u = hex4(b, i, to);
                            i += 4;
                            if (u >= 0xd800 && u <= 0xdbff) { // a surrogate pair: high, then low
                                int low = i + 1 < to && b[i] == '\\' && b[i + 1] == 'u' ? hex4(b, i + 2, to) : -1;
                                if (low < 0xdc00 || low > 0xdfff) {
                                    return -1;
                                }
                                i += 6;
                                u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
                            } else if (u < 0 || u >= 0xdc00 && u <= 0xdfff) {
                                return -1;
                            }
                            putUtf8(u);
                        }
                        default -> {
                            return -1;
                        }
                    }
                }
                default -> {
                    int n = utf8(b, i, to);
                    if (n < 0) {
                        return -1;
                    }
                    System.arraycopy(b, i, scratch, scratchLength, n);
                    scratchLength += n;
                    i += n;
                }
            }
        }
        return -1;
    }

    /** The length of the well-formed UTF-8 character of two to four bytes at {@code i}, or -1. */
    private static int utf8(byte[] b, int i, int to) {
        int c = b[i] & 0xff;
        switch (CLASS[c]) {
            case TWO -> {
                return i + 1 < to && continuation(b[i + 1], 0x80, 0xbf) ? 2 : -1;
            }
            case THREE -> {
                int lo = c == 0xe0 ? 0xa0 : 0x80;
                int hi = c == 0xed ? 0x9f : 0xbf; // no surrogates
                return i + 2 < to && continuation(b[i + 1], lo, hi) && continuation(b[i + 2], 0x80, 0xbf) ? 3 : -1;
            }
            case FOUR -> {
                int lo = c == 0xf0 ? 0x90 : 0x80;
                int hi = c == 0xf4 ? 0x8f : 0xbf; // not beyond U+10FFFF
                return i + 3 < to && continuation(b[i + 1], lo, hi) && continuation(b[i + 2], 0x80, 0xbf)
                        && continuation(b[i + 3], 0x80, 0xbf) ? 4 : -1;
            }
            default -> {
                return -1; // a control character, or not UTF-8
            }
        }
    }

    private static int hex4(byte[] b, int i, int to) {
        if (i + 4 > to) {
            return -1;
        }
        int v = 0;
        for (int k = i; k < i + 4; k++) {
            int d = Character.digit(b[k], 16);
            if (d < 0) {
                return -1;
            }
            v = v << 4 | d;
        }
        return v;
    }

    /** Appends code point {@code u} (not a surrogate) to {@code scratch} in UTF-8. */
    private void putUtf8(int u) {
        if (u < 0x80) {
            scratch[scratchLength++] = (byte) u;
        } else if (u < 0x800) {
            scratch[scratchLength++] = (byte) (0xc0 | u >> 6);
            scratch[scratchLength++] = (byte) (0x80 | u & 0x3f);
        } else if (u < 0x10000) {
            scratch[scratchLength++] = (byte) (0xe0 | u >> 12);
            scratch[scratchLength++] = (byte) (0x80 | u >> 6 & 0x3f);
            scratch[scratchLength++] = (byte) (0x80 | u & 0x3f);
        } else {
            scratch[scratchLength++] = (byte) (0xf0 | u >> 18);
            scratch[scratchLength++] = (byte) (0x80 | u >> 12 & 0x3f);
            scratch[scratchLength++] = (byte) (0x80 | u >> 6 & 0x3f);
            scratch[scratchLength++] = (byte) (0x80 | u & 0x3f);
        }
    }

    private static boolean continuation(byte b, int lo, int hi) {
        int c = b & 0xff;
        return c >= lo && c <= hi;
    }

    private static final byte OTHER = 0;
    private static final byte PLAIN = 1;
    private static final byte QUOTE = 2;
    private static final byte TWO = 3;
    private static final byte THREE = 4;
    private static final byte FOUR = 5;
    private static final byte BACKSLASH = 6;
    /** What each byte can be inside a plain string: the start of a one- to four-byte UTF-8 character, the end, or other. */
    private static final byte[] CLASS = new byte[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            CLASS[c] = PLAIN;
        }
        CLASS['"'] = QUOTE;
        CLASS['\\'] = BACKSLASH;
        for (int c = 0xc2; c <= 0xdf; c++) {
            CLASS[c] = TWO;
        }
        for (int c = 0xe0; c <= 0xef; c++) {
            CLASS[c] = THREE;
        }
        for (int c = 0xf0; c <= 0xf4; c++) {
            CLASS[c] = FOUR;
        }
    }

    /** {@code name "=" "-" "\n"} */
    private void absent(int field) {
        size = copy(ABSENT[field], 0, ABSENT[field].length, out, size);
    }

    /** {@code name "=" length ":" value "\n"}; the value's bytes are its UTF-8 bytes, so their count is its length. */
    private void present(int field, byte[] b, int start, int end) {
        size = copy(NAME_IS[field], 0, NAME_IS[field].length, out, size);
        int len = end - start;
        int digits = len < 10 ? 1 : len < 100 ? 2 : Integer.toString(len).length();
        for (int k = size + digits - 1, v = len; k >= size; k--, v /= 10) {
            out[k] = (byte) ('0' + v % 10);
        }
        size += digits;
        out[size++] = ':';
        size = copy(b, start, len, out, size);
        out[size++] = '\n';
    }

    private static int copy(byte[] from, int at, int n, byte[] to, int into) {
        System.arraycopy(from, at, to, into, n);
        return into + n;
    }

    private void ensure(int capacity) {
        if (out.length < capacity) {
            out = new byte[capacity];
        }
    }

    private static boolean equals(byte[] b, int from, int to, byte[] name) {
        if (to - from != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (b[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }
}
