package dev.quaestor.uri;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A resource URI in its one canonical form: lower-case scheme and authority, path segments
 * percent-decoded exactly once, no dot-segments, no empty segments, no query or fragment.
 * The policy engine judges this value and providers serve this value, so a URI can never be
 * judged in one form and served in another. Build instances only through {@link UriCanonicalizer}.
 */
public record CanonicalUri(String scheme, String authority, List<String> segments) {

    public CanonicalUri {
        segments = List.copyOf(segments);
    }

    /** True if this URI equals {@code prefix} or lies below it, compared segment by segment. */
    public boolean isWithin(CanonicalUri prefix) {
        if (!scheme.equals(prefix.scheme)) {
            return false;
        }
        if (!prefix.authority.isEmpty() || !prefix.segments.isEmpty()) {
            if (!authority.equals(prefix.authority)) {
                return false;
            }
        }
        if (segments.size() < prefix.segments.size()) {
            return false;
        }
        return segments.subList(0, prefix.segments.size()).equals(prefix.segments);
    }

    /** The segments below {@code prefix}; the caller must have checked {@link #isWithin}. */
    public List<String> relativeTo(CanonicalUri prefix) {
        return segments.subList(prefix.segments.size(), segments.size());
    }

    public CanonicalUri child(String segment) {
        var list = new java.util.ArrayList<>(segments);
        list.add(segment);
        return new CanonicalUri(scheme, authority, list);
    }

    /** The wire form: segments re-encoded so that the string parses back to this same value. */
    @Override
    public String toString() {
        var sb = new StringBuilder(scheme.length() + authority.length() + 16 * segments.size() + 4);
        sb.append(scheme).append("://").append(authority);
        for (String s : segments) {
            sb.append('/');
            encodeSegment(s, sb);
        }
        return sb.toString();
    }

    private static void encodeSegment(String segment, StringBuilder out) {
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (isUnreserved(c)) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
    }

    static boolean isUnreserved(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '!' || c == '$' || c == '&'
                || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' || c == ',' || c == ';'
                || c == '=' || c == ':' || c == '@';
    }
}
