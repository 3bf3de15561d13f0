package dev.quaestor.uri;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Locale;

/**
 * Turns a client-supplied URI into its {@link CanonicalUri}, or refuses it. Used by the policy
 * engine, the providers and the mount table alike.
 *
 * <p>Rules, chosen to fail closed: only {@code scheme://authority/path} URIs; scheme and authority
 * are lower-cased; each path segment is percent-decoded exactly once as strict UTF-8 (overlong
 * forms and stray bytes are refused); a decoded {@code /}, {@code \}, NUL, control or format
 * character is refused, and so are lone UTF-16 surrogates and Unicode non-characters, sent raw or
 * percent-encoded (a URI has to be one sequence of Unicode characters to have a canonical form at
 * all); {@code .} segments vanish and {@code ..} pops one segment but may not
 * climb above the root; empty segments (duplicate slashes) collapse; segments may not end in a
 * dot or a space (Windows would treat {@code a.txt.} as {@code a.txt}); text is put in Unicode
 * NFC. Query strings and fragments are refused: no provider interprets them, and a part of the
 * URI the policy engine cannot see must not reach one.
 */
public final class UriCanonicalizer {

    public static final int MAX_LENGTH = 4096;

    private UriCanonicalizer() {
    }

    public static CanonicalUri canonicalize(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new InvalidUriException("URI is empty");
        }
        if (raw.length() > MAX_LENGTH) {
            throw new InvalidUriException("URI is longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c == 0x7f) {
                throw new InvalidUriException("URI contains a space or control character");
            }
            if (c == '\\') {
                throw new InvalidUriException("URI contains a backslash");
            }
            if (c == '?' || c == '#') {
                throw new InvalidUriException("URI query strings and fragments are not supported");
            }
            if (Character.isSurrogate(c)) {
                // A pair is one character; a lone half is no character at all, and has no UTF-8 form.
                if (!Character.isHighSurrogate(c) || i + 1 >= raw.length() || !Character.isLowSurrogate(raw.charAt(i + 1))) {
                    throw new InvalidUriException("URI contains a lone UTF-16 surrogate");
                }
                i++;
                checkCharacter(Character.toCodePoint(c, raw.charAt(i)));
            } else if (c >= 0x80) {
                checkCharacter(c);
            }
        }
        int colon = raw.indexOf(':');
        if (colon <= 0) {
            throw new InvalidUriException("URI has no scheme");
        }
        String scheme = raw.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!isValidScheme(scheme)) {
            throw new InvalidUriException("URI scheme is invalid");
        }
        if (!raw.startsWith("//", colon + 1)) {
            throw new InvalidUriException("URI must have the form scheme://authority/path");
        }
        int authStart = colon + 3;
        int pathStart = raw.indexOf('/', authStart);
        if (pathStart < 0) {
            pathStart = raw.length();
        }
        String authority = raw.substring(authStart, pathStart).toLowerCase(Locale.ROOT);
        for (int i = 0; i < authority.length(); i++) {
            char c = authority.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'
                    || c == ':' || c == '[' || c == ']';
            if (!ok) {
                throw new InvalidUriException("URI authority contains a character that is not allowed");
            }
        }
        var segments = new ArrayList<String>();
        int i = pathStart;
        while (i < raw.length()) {
            int next = raw.indexOf('/', i + 1);
            if (next < 0) {
                next = raw.length();
            }
            String segment = decodeSegment(raw.substring(i + 1, next));
            i = next;
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    throw new InvalidUriException("URI path climbs above its root");
                }
                segments.remove(segments.size() - 1);
                continue;
            }
            char last = segment.charAt(segment.length() - 1);
            if (last == '.' || last == ' ') {
                throw new InvalidUriException("URI path segment ends with a dot or a space");
            }
            segments.add(segment);
        }
        return new CanonicalUri(scheme, authority, segments);
    }

    private static boolean isValidScheme(String s) {
        if (s.isEmpty() || s.charAt(0) < 'a' || s.charAt(0) > 'z') {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static String decodeSegment(String s) {
        if (s.indexOf('%') < 0) {
            return checkDecoded(s);
        }
        var bytes = new byte[s.length()];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new InvalidUriException("URI has a truncated percent-encoding");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new InvalidUriException("URI has an invalid percent-encoding");
                }
                bytes[n++] = (byte) ((hi << 4) | lo);
                i += 2;
            } else if (c < 0x80) {
                bytes[n++] = (byte) c;
            } else {
                // Raw non-ASCII: re-encode as UTF-8 so that it is decoded exactly like its %-form.
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    utf8 = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                if (n + utf8.length > bytes.length) {
                    bytes = java.util.Arrays.copyOf(bytes, bytes.length + utf8.length + 8);
                }
                System.arraycopy(utf8, 0, bytes, n, utf8.length);
                n += utf8.length;
            }
        }
        String decoded;
        try {
            decoded = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidUriException("URI is not valid UTF-8 after percent-decoding");
        }
        return checkDecoded(decoded);
    }

    /** Refuses a Unicode non-character (U+FDD0..U+FDEF, and U+xFFFE and U+xFFFF of every plane). */
    private static void checkCharacter(int codePoint) {
        if ((codePoint >= 0xFDD0 && codePoint <= 0xFDEF) || (codePoint & 0xFFFE) == 0xFFFE) {
            throw new InvalidUriException("URI contains a Unicode non-character");
        }
    }

    private static String checkDecoded(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                checkCharacter(s.codePointAt(i));
            }
            if (c == '/' || c == '\\') {
                throw new InvalidUriException("URI path segment contains an encoded separator");
            }
            int type = Character.getType(c);
            if (c == 0 || type == Character.CONTROL || type == Character.FORMAT || c == '\uFFFD') {
                throw new InvalidUriException("URI path segment contains a control or format character");
            }
        }
        return Normalizer.isNormalized(s, Normalizer.Form.NFC) ? s : Normalizer.normalize(s, Normalizer.Form.NFC);
    }
}
