package dev.quaestor.evidence;

import java.util.HexFormat;

/** Lowercase hex, as hashes are stored and exported. */
public final class Hex {

    private static final HexFormat HEX = HexFormat.of();

    private Hex() {
    }

    public static String of(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    /** Parses exactly 64 lowercase hex digits (a SHA-256); anything else is refused. */
    public static byte[] hash(String hex) {
        if (!isHash(hex)) {
            throw new IllegalArgumentException("not a SHA-256 in lowercase hex: " + hex);
        }
        return HEX.parseHex(hex);
    }

    /** Whether {@code hex} is exactly the lowercase hex of {@code bytes} (compared without allocating). */
    public static boolean matches(String hex, byte[] bytes) {
        if (hex == null || hex.length() != bytes.length * 2) {
            return false;
        }
        int diff = 0;
        for (int i = 0; i < bytes.length; i++) {
            diff |= hex.charAt(2 * i) ^ DIGITS[(bytes[i] >> 4) & 15];
            diff |= hex.charAt(2 * i + 1) ^ DIGITS[bytes[i] & 15];
        }
        return diff == 0;
    }

    /** Whether {@code hex} is 64 lowercase hex digits. */
    public static boolean isHash(String hex) {
        return hex != null && hex.length() == 64 && hex.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();
}
