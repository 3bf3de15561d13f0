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
 * {@code file:///a//b/c} and {@code file:///a/b/c} are one pattern; dot-segments and percent-encoded
 * {@code * $ { }} are refused ({@link PatternSpelling}).
 *
 * <p>Forms: {@code **} (everything), {@code scheme://**} (everything in a scheme),
 * {@code scheme://*}{@code /...} (any authority), {@code scheme://authority/seg/...}.
 *
 * <p>Any number of {@code **} segments may appear anywhere in the path. A policy author writes a
 * pattern once and any caller then chooses the URIs it is matched against, so matching never
 * backtracks: it costs at most (URI segments x pattern segments) segment comparisons
 * ({@link #matchPath}), and within a segment at most (glob length x segment length) characters.
 */
public final class ResourcePattern {

    static final String ANY_DEPTH = "**";

    private final String source;
    private final String scheme;       // null = any scheme
    private final String authority;    // null = any authority
    private final List<String> segments;
    private final boolean hasPlaceholders;
    /** Per segment, whether it is {@code **}. */
    private final boolean[] anyDepth;
    /** The index of the first {@code **} segment, or -1. */
    private final int firstAnyDepth;

    private ResourcePattern(String source, String scheme, String authority, List<String> segments) {
        this.source = source;
        this.scheme = scheme;
        this.authority = authority;
        this.segments = segments;
        this.hasPlaceholders = segments.stream().anyMatch(s -> s.contains("${"));
        this.anyDepth = new boolean[segments.size()];
        for (int i = 0; i < anyDepth.length; i++) {
            anyDepth[i] = segments.get(i).equals(ANY_DEPTH);
        }
        this.firstAnyDepth = segments.indexOf(ANY_DEPTH);
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
        int sep = pattern.indexOf("://");
        if (sep <= 0) {
            canonical(pattern); // names what is wrong
            throw new IllegalArgumentException("resource pattern '" + pattern + "' must have the form scheme://authority/path");
        }
        int pathStart = pattern.indexOf('/', sep + 3);
        String rawPath = pathStart < 0 ? "" : pattern.substring(pathStart);
        PatternSpelling.checkWritten(pattern, rawPath);
        String auth = pathStart < 0 ? pattern.substring(sep + 3) : pattern.substring(sep + 3, pathStart);
        if (auth.equals(ANY_DEPTH) && pathStart < 0) {
            String scheme = canonical(pattern.substring(0, sep) + "://").scheme();
            return new ResourcePattern(pattern, scheme, null, List.of(ANY_DEPTH));
        }
        boolean anyAuthority = auth.equals("*");
        CanonicalUri c = canonical(anyAuthority ? pattern.substring(0, sep) + "://" + rawPath : pattern);
        PatternSpelling.checkKept(pattern, rawPath, c.segments());
        return new ResourcePattern(pattern, c.scheme(), anyAuthority ? null : c.authority(), checkSegments(pattern, c.segments()));
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

    /**
     * Whether some URI at or below {@code prefix} (a mount's) could match this pattern: false only when a part the
     * pattern writes out (its scheme, its authority, a path segment with no wildcard or placeholder, before any
     * {@code **}) differs from the prefix's. A rule none of whose patterns could match under any mount applies to
     * nothing served.
     */
    public boolean couldMatchWithin(CanonicalUri prefix) {
        if (scheme != null && !scheme.equals(prefix.scheme())) {
            return false;
        }
        boolean anyAuthority = prefix.authority().isEmpty() && prefix.segments().isEmpty();
        if (authority != null && !anyAuthority && !authority.equals(prefix.authority())) {
            return false;
        }
        List<String> under = prefix.segments();
        for (int i = 0; i < segments.size() && i < under.size(); i++) {
            String s = segments.get(i);
            if (s.equals(ANY_DEPTH)) {
                return true;
            }
            if (!s.contains("*") && !s.contains("${") && !under.get(i).isEmpty() && !s.equals(under.get(i))) {
                return false;
            }
        }
        return true;
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
        return matchPath(uri.segments(), who) >= 0;
    }

    /**
     * Matches the path, never backtracking: the number of steps (one step is one pattern segment
     * held against one URI segment) is returned when the path matches, or {@code -1 - steps} when it
     * does not. It is at most {@code uri.size() * segments.size()}, whatever the pattern: a run of
     * {@code **} segments cannot make it grow faster than that.
     *
     * <p>A pattern without {@code **}, or with one only at its end, is compared segment by segment.
     * Otherwise the pattern is run as an automaton over its positions: after each URI segment the
     * set of pattern positions that the path so far can have reached is kept (a {@code **} stays
     * where it is, consuming the segment, and also lets the next position start without one), so
     * each URI segment is held against each pattern segment at most once.
     */
    int matchPath(List<String> uri, Identity who) {
        int p = segments.size();
        int last = p - 1;
        int inner = firstAnyDepth;
        if (inner < 0 || inner == last) {
            // Literal and glob segments only, maybe followed by one trailing **.
            int fixed = inner < 0 ? p : last;
            if (inner < 0 ? uri.size() != fixed : uri.size() < fixed) {
                return -1;
            }
            for (int i = 0; i < fixed; i++) {
                if (!segmentMatches(i, uri.get(i), who)) {
                    return -1 - (i + 1);
                }
            }
            return fixed;
        }
        boolean[] at = new boolean[p + 1];
        boolean[] next = new boolean[p + 1];
        at[0] = true;
        close(at);
        int steps = 0;
        for (String u : uri) {
            boolean any = false;
            for (int i = 0; i < p; i++) {
                if (!at[i]) {
                    continue;
                }
                steps++;
                if (anyDepth[i]) {
                    next[i] = true;
                    any = true;
                } else if (segmentMatches(i, u, who)) {
                    next[i + 1] = true;
                    any = true;
                }
            }
            if (!any) {
                return -1 - steps;
            }
            close(next);
            boolean[] t = at;
            at = next;
            next = t;
            java.util.Arrays.fill(next, false);
        }
        return at[p] ? steps : -1 - steps;
    }

    /** Adds the positions reachable without consuming a segment: past each {@code **} that is reached. */
    private void close(boolean[] at) {
        for (int i = 0; i < anyDepth.length; i++) {
            if (at[i] && anyDepth[i]) {
                at[i + 1] = true;
            }
        }
    }

    private boolean segmentMatches(int i, String value, Identity who) {
        String seg = segments.get(i);
        return hasPlaceholders ? segmentMatches(seg, who, value) : segmentMatches(seg, value);
    }

    /**
     * Whether every placeholder of the pattern binds for this caller: a pattern with
     * {@code ${tenant}} matches nothing at all for a caller without a tenant.
     */
    boolean bindsFor(Identity who) {
        if (!hasPlaceholders) {
            return true;
        }
        for (String seg : segments) {
            if (seg.contains("${") && bind(seg, who) == null) {
                return false;
            }
        }
        return true;
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
