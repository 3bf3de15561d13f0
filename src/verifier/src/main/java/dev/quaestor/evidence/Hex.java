package dev.quaestor.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/** Lowercase hex, as hashes are stored and exported; canonical base64 and strict UTF-8, as the files are read. */
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

    /** The bytes of canonical base64 (the same bytes have one text), or null if {@code s} is not that. */
    public static byte[] base64(String s) {
        try {
            byte[] b = Base64.getDecoder().decode(s);
            return Base64.getEncoder().encodeToString(b).equals(s) ? b : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code b[from, to)} as UTF-8, refusing malformed input. */
    public static String utf8(byte[] b, int from, int to) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, from, to - from)).toString();
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();
}
