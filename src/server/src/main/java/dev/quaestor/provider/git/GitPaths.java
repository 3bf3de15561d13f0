package dev.quaestor.provider.git;

import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.List;
import java.util.Locale;

/**
 * Which paths inside a git tree may be served. URIs arrive canonical, but a provider must confine
 * itself whatever it is given, and a tree can hold names no well-behaved git writes (git fsck
 * refuses them, the object database does not): so every segment is checked again here.
 */
final class GitPaths {

    private GitPaths() {
    }

    /** The tree path for URI segments, or null if any segment could escape or address git internals. */
    static String treePath(List<String> segments) {
        if (segments.isEmpty()) {
            return null;
        }
        var sb = new StringBuilder();
        for (String s : segments) {
            if (!isSafeSegment(s)) {
                return null;
            }
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(s);
        }
        return sb.toString();
    }

    /**
     * False for empty, {@code .} and {@code ..}, anything with a separator, NUL or control
     * character, and {@code .git} in any letter case (with trailing dots or spaces, as Windows
     * would read it).
     */
    static boolean isSafeSegment(String s) {
        if (s.isEmpty() || s.equals(".") || s.equals("..")) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) {
                return false;
            }
        }
        String trimmed = s.replaceAll("[. ]+$", "").toLowerCase(Locale.ROOT);
        return !trimmed.equals(".git");
    }

    /**
     * The URI of a tree path below {@code base}, or null if the path cannot be addressed: a segment
     * is unsafe, or the canonical form of the URI is not this same URI (for example a name in
     * Unicode NFD or ending in a dot), so a client could never read it back.
     */
    static CanonicalUri uriOf(CanonicalUri base, String treePath) {
        CanonicalUri u = base;
        for (String s : treePath.split("/", -1)) {
            if (!isSafeSegment(s)) {
                return null;
            }
            u = u.child(s);
        }
        try {
            return UriCanonicalizer.canonicalize(u.toString()).equals(u) ? u : null;
        } catch (InvalidUriException e) {
            return null;
        }
    }
}
