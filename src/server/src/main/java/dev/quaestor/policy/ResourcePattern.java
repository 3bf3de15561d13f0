package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.List;

/**
 * A compiled resource glob. {@code *} matches within one path segment, a {@code **} segment
 * matches any number of segments (including none), and {@code ${subject}} / {@code ${tenant}}
 * bind to the caller. A pattern is canonicalised by the same rules as the URIs it judges, so
 * {@code file:///a//b/./c} and {@code file:///a/b/c} are one pattern.
 *
 * <p>Forms: {@code **} (everything), {@code scheme://**} (everything in a scheme),
 * {@code scheme://*}{@code /...} (any authority), {@code scheme://authority/seg/...}.
 */
public final class ResourcePattern {

    static final String ANY_DEPTH = "**";

    private final String source;
    private final String scheme;       // null = any scheme
    private final String authority;    // null = any authority
    private final List<String> segments;
    private final boolean hasPlaceholders;

    private ResourcePattern(String source, String scheme, String authority, List<String> segments) {
        this.source = source;
        this.scheme = scheme;
        this.authority = authority;
        this.segments = segments;
        this.hasPlaceholders = segments.stream().anyMatch(s -> s.contains("${"));
    }

    /** Parses a pattern, or throws {@link IllegalArgumentException} naming what is wrong. */
    public static ResourcePattern parse(String pattern) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("empty resource pattern");
        }
        if (pattern.equals(ANY_DEPTH)) {
            return new ResourcePattern(pattern, null, null, List.of(ANY_DEPTH));
        }
        for (char c : new char[] {'?', '[', ']'}) {
            if (pattern.indexOf(c) >= 0) {
                throw new IllegalArgumentException("'" + c + "' is not supported in resource pattern '" + pattern + "'");
            }
        }
        if (pattern.contains("/../") || pattern.endsWith("/..")) {
            throw new IllegalArgumentException("dot-segments are not allowed in resource pattern '" + pattern + "'");
        }
        int sep = pattern.indexOf("://");
        if (sep > 0) {
            int pathStart = pattern.indexOf('/', sep + 3);
            String auth = pathStart < 0 ? pattern.substring(sep + 3) : pattern.substring(sep + 3, pathStart);
            if (auth.equals(ANY_DEPTH) && pathStart < 0) {
                String scheme = canonical(pattern.substring(0, sep) + "://").scheme();
                return new ResourcePattern(pattern, scheme, null, List.of(ANY_DEPTH));
            }
            if (auth.equals("*")) {
                String rest = pathStart < 0 ? "" : pattern.substring(pathStart);
                CanonicalUri c = canonical(pattern.substring(0, sep) + "://" + rest);
                return new ResourcePattern(pattern, c.scheme(), null, checkSegments(pattern, c.segments()));
            }
        }
        CanonicalUri c = canonical(pattern);
        return new ResourcePattern(pattern, c.scheme(), c.authority(), checkSegments(pattern, c.segments()));
    }

    private static CanonicalUri canonical(String s) {
        try {
            return UriCanonicalizer.canonicalize(s);
        } catch (InvalidUriException e) {
            throw new IllegalArgumentException("bad resource pattern '" + s + "': " + e.getMessage());
        }
    }

    private static List<String> checkSegments(String pattern, List<String> segments) {
        for (String s : segments) {
            if (s.contains("**") && !s.equals(ANY_DEPTH)) {
                throw new IllegalArgumentException("'**' must be a whole path segment in '" + pattern + "'");
            }
            int i = s.indexOf("${");
            while (i >= 0) {
                int end = s.indexOf('}', i);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated placeholder in '" + pattern + "'");
                }
                String name = s.substring(i + 2, end);
                if (!name.equals("subject") && !name.equals("tenant")) {
                    throw new IllegalArgumentException("unknown placeholder ${" + name + "} in '" + pattern
                            + "' (only ${subject} and ${tenant} are bound)");
                }
                i = s.indexOf("${", end);
            }
        }
        return List.copyOf(segments);
    }

    public String source() {
        return source;
    }

    /** Null when any scheme matches. */
    String scheme() {
        return scheme;
    }

    /** Null when any authority matches. */
    String authority() {
        return authority;
    }

    List<String> segments() {
        return segments;
    }

    /** True if the pattern is {@code <i literal-or-glob segments>/**}: it then matches everything below depth i. */
    boolean endsWithAnyDepthAt(int i) {
        return segments.size() == i + 1 && segments.get(i).equals(ANY_DEPTH);
    }

    public boolean matches(CanonicalUri uri, Identity who) {
        if (scheme != null && !scheme.equals(uri.scheme())) {
            return false;
        }
        if (authority != null && !authority.equals(uri.authority())) {
            return false;
        }
        return matchSegments(0, uri.segments(), 0, who);
    }

    private boolean matchSegments(int pi, List<String> uri, int ui, Identity who) {
        while (pi < segments.size()) {
            String seg = segments.get(pi);
            if (seg.equals(ANY_DEPTH)) {
                if (pi == segments.size() - 1) {
                    return true;
                }
                for (int k = ui; k <= uri.size(); k++) {
                    if (matchSegments(pi + 1, uri, k, who)) {
                        return true;
                    }
                }
                return false;
            }
            if (ui >= uri.size()) {
                return false;
            }
            if (hasPlaceholders ? !segmentMatches(seg, who, uri.get(ui)) : !segmentMatches(seg, uri.get(ui))) {
                return false;
            }
            pi++;
            ui++;
        }
        return ui == uri.size();
    }

    /** Substitutes placeholders; null if a placeholder has no value or a value that is not one safe segment. */
    static String bind(String seg, Identity who) {
        if (seg == null || !seg.contains("${")) {
            return seg;
        }
        String subject = safe(who.subject());
        String tenant = safe(who.tenant());
        if ((seg.contains("${subject}") && subject == null) || (seg.contains("${tenant}") && tenant == null)) {
            return null;
        }
        String out = seg;
        if (subject != null) {
            out = out.replace("${subject}", subject);
        }
        if (tenant != null) {
            out = out.replace("${tenant}", tenant);
        }
        return out;
    }

    /**
     * {@code segmentMatches(bind(glob, who), value)} without building the bound string when the
     * glob is exactly one placeholder (a home folder's {@code ${subject}}), the usual case.
     */
    static boolean segmentMatches(String glob, Identity who, String value) {
        if (!glob.contains("${")) {
            return segmentMatches(glob, value);
        }
        if (glob.equals("${subject}")) {
            String subject = safe(who.subject());
            return subject != null && subject.equals(value);
        }
        if (glob.equals("${tenant}")) {
            String tenant = safe(who.tenant());
            return tenant != null && tenant.equals(value);
        }
        return segmentMatches(bind(glob, who), value);
    }

    /** A claim value is used as a literal segment only if it cannot act as a wildcard or climb. */
    private static String safe(String v) {
        if (v == null || v.isEmpty() || v.equals(".") || v.equals("..") || v.contains("/") || v.contains("\\")
                || v.contains("*") || v.contains("${")) {
            return null;
        }
        return v;
    }

    /** Glob within one segment: {@code *} matches any run of characters. */
    static boolean segmentMatches(String glob, String value) {
        if (glob == null) {
            return false;
        }
        int star = glob.indexOf('*');
        if (star < 0) {
            return glob.equals(value);
        }
        int g = 0;
        int v = 0;
        int starG = -1;
        int starV = 0;
        while (v < value.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                starG = g++;
                starV = v;
            } else if (g < glob.length() && glob.charAt(g) == value.charAt(v)) {
                g++;
                v++;
            } else if (starG >= 0) {
                g = starG + 1;
                v = ++starV;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }

    @Override
    public String toString() {
        return source;
    }
}
