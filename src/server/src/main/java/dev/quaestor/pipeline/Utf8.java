package dev.quaestor.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Whether bytes are well-formed UTF-8 (the Unicode standard's table of well-formed byte sequences: no overlong forms,
 * no surrogates, nothing past U+10FFFF), checked byte by byte without decoding them to characters; runs of ASCII are
 * passed eight bytes at a time. A {@link Check} takes the bytes in pieces, a character may span two.
 */
final class Utf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Utf8() {
    }

    static boolean isValid(byte[] b) {
        var check = new Check();
        return check.add(b, 0, b.length) && check.complete();
    }

    /** Bytes given in order, piece by piece: whether all so far are UTF-8, and where the first that is not is. */
    static final class Check {
        /** Continuation bytes the character under way still needs, and the range its next one must be in. */
        private int need;
        private int low = 0x80;
        private int high = 0xBF;
        private long seen;
        private long invalidAt = -1;

        /** Adds {@code len} bytes of {@code b}; false (from now on) once a byte is not where UTF-8 allows it. */
        boolean add(byte[] b, int off, int len) {
            if (invalidAt >= 0) {
                return false;
            }
            int end = off + len;
            int i = off;
            while (i < end) {
                if (need == 0) {
                    while (i + 8 <= end && ((long) LONGS.get(b, i) & HIGH_BITS) == 0) {
                        i += 8;
                    }
                    if (i == end) {
                        break;
                    }
                    int c = b[i] & 0xFF;
                    if (c < 0x80) {
                        i++;
                        continue;
                    }
                    if (!lead(c)) {
                        return invalid(off, i);
                    }
                } else {
                    int c = b[i] & 0xFF;
                    if (c < low || c > high) {
                        return invalid(off, i);
                    }
                    need--;
                    low = 0x80;
                    high = 0xBF;
                }
                i++;
            }
            seen += len;
            return true;
        }

        /** True if every byte added is UTF-8 and the last character is whole: the bytes end here. */
        boolean complete() {
            return invalidAt < 0 && need == 0;
        }

        /** The offset of the first byte that is not UTF-8 (the end, for a last character cut short), or -1. */
        long invalidAt() {
            return invalidAt >= 0 ? invalidAt : need > 0 ? seen : -1;
        }

        private boolean lead(int c) {
            if (c >= 0xC2 && c <= 0xDF) {
                expect(1, 0x80, 0xBF);
            } else if (c == 0xE0) {
                expect(2, 0xA0, 0xBF); // not overlong
            } else if (c == 0xED) {
                expect(2, 0x80, 0x9F); // not a surrogate
            } else if (c >= 0xE1 && c <= 0xEF) {
                expect(2, 0x80, 0xBF);
            } else if (c == 0xF0) {
                expect(3, 0x90, 0xBF); // not overlong
            } else if (c >= 0xF1 && c <= 0xF3) {
                expect(3, 0x80, 0xBF);
            } else if (c == 0xF4) {
                expect(3, 0x80, 0x8F); // not past U+10FFFF
            } else {
                return false; // a continuation byte, C0, C1 or F5-FF
            }
            return true;
        }

        private void expect(int continuations, int firstLow, int firstHigh) {
            need = continuations;
            low = firstLow;
            high = firstHigh;
        }

        private boolean invalid(int off, int i) {
            invalidAt = seen + (i - off);
            return false;
        }
    }
}
