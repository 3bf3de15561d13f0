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
        if (hex == null || hex.length() != 64) {
            throw new IllegalArgumentException("not a SHA-256 in hex: " + hex);
        }
        for (int i = 0; i < 64; i++) {
            char c = hex.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                throw new IllegalArgumentException("not a SHA-256 in lowercase hex: " + hex);
            }
        }
        return HEX.parseHex(hex);
    }
}
