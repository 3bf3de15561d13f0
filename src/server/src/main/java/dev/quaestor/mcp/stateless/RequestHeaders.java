package dev.quaestor.mcp.stateless;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The standard request headers of MCP 2026-07-28 Streamable HTTP, checked against the body they
 * restate: {@code Mcp-Method} (every request) and {@code Mcp-Name} ({@code params.uri} of a
 * {@code resources/read}). A proxy routes and filters on these headers, so a request whose headers say
 * something else than its body must never be served: each check returns why it failed, or null.
 *
 * <p>Values are compared exactly (they are case-sensitive) after trimming spaces and tabs at either
 * end. A value must be visible ASCII (spaces and tabs allowed inside); anything else is carried
 * Base64-encoded as {@code =?base64?…?=}, which is decoded (canonical padded Base64 of valid UTF-8,
 * else refused) before the comparison.
 */
public final class RequestHeaders {

    public static final String METHOD = "Mcp-Method";
    public static final String NAME = "Mcp-Name";

    private static final String SENTINEL_START = "=?base64?";
    private static final String SENTINEL_END = "?=";
    private static final Pattern CANONICAL_BASE64 =
            Pattern.compile("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");
    /** Longest header value examined; a resource URI is at most a few KiB. */
    private static final int MAX_VALUE = 16 * 1024;

    private RequestHeaders() {
    }

    /** The value with spaces and tabs at either end removed; null stays null. */
    public static String trim(String value) {
        if (value == null) {
            return null;
        }
        int from = 0;
        int to = value.length();
        while (from < to && isOws(value.charAt(from))) {
            from++;
        }
        while (to > from && isOws(value.charAt(to - 1))) {
            to--;
        }
        return value.substring(from, to);
    }

    /** Why {@code Mcp-Method} does not state {@code method}, or null if it does. */
    static String methodMismatch(String header, String method) {
        if (header == null) {
            return "Mcp-Method header is required";
        }
        String value = trim(header);
        if (!plainAscii(value)) {
            return "Mcp-Method header holds characters a header value may not";
        }
        return value.equals(method) ? null
                : "Mcp-Method header value '" + shorten(value) + "' does not match body method '" + shorten(method) + "'";
    }

    /** Why {@code Mcp-Name} does not state {@code name} (a resource URI), or null if it does. */
    static String nameMismatch(String header, String name) {
        if (header == null) {
            return "Mcp-Name header is required";
        }
        String value = trim(header);
        if (value.length() > MAX_VALUE) {
            return "Mcp-Name header is too long";
        }
        String decoded;
        if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)
                && value.length() >= SENTINEL_START.length() + SENTINEL_END.length()) {
            decoded = decode(value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length()));
            if (decoded == null) {
                return "Mcp-Name header holds an invalid Base64 value";
            }
        } else if (!plainAscii(value)) {
            return "Mcp-Name header holds characters a header value may not; encode it as =?base64?…?=";
        } else {
            decoded = value;
        }
        return decoded.equals(name) ? null
                : "Mcp-Name header value '" + shorten(decoded) + "' does not match body value '" + shorten(name) + "'";
    }

    /** The UTF-8 text a canonical padded Base64 payload encodes, or null if it is not one. */
    static String decode(String payload) {
        if (!CANONICAL_BASE64.matcher(payload).matches()) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(payload);
        } catch (IllegalArgumentException e) {
            return null;
        }
        // The decoder ignores the unused low bits of the last character ("QR==" and "QQ==" both decode to "A"):
        // only the one encoding of these bytes is canonical, so that every reader of the header sees one value.
        if (!Base64.getEncoder().encodeToString(bytes).equals(payload)) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Visible ASCII, with spaces and tabs allowed inside. */
    private static boolean plainAscii(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(c >= 0x21 && c <= 0x7e) && !isOws(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    private static String shorten(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }
}
