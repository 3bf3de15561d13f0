package dev.quaestor.evidence;

/** Non-negative decimal numbers as the format writes them: no sign, no leading zeros, below 2^63. */
public final class Decimal {

    private Decimal() {
    }

    /** The value, or -1 if {@code s} is not such a number. */
    public static long parse(String s) {
        if (s == null || s.isEmpty() || s.length() > 19 || (s.charAt(0) == '0' && s.length() > 1)) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            if (v < 0) {
                return -1;
            }
        }
        return v;
    }
}
