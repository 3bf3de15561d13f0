package dev.quaestor.policy;

import java.util.List;

/**
 * What a resource pattern may not say through percent-encoding. A pattern is canonicalised like the URIs it judges,
 * which decodes each path segment once and resolves {@code .} and {@code ..}; so an encoded {@code %2E%2E} would climb
 * out of the folder the pattern names, and an encoded {@code %2A} would turn into a wildcard after the pattern's text
 * was checked. Both are refused: the characters with a meaning in a pattern ({@code *}, {@code $}, {@code {},
 * {@code }}) are written as themselves, and no segment is a dot-segment, written plainly or encoded. Nor does a
 * pattern end in {@code /}: it would name the folder alone, where its author meant what the folder holds.
 */
final class PatternSpelling {

    /** The characters a glob or a placeholder is made of. */
    private static final String PATTERN_CHARACTERS = "*${}";

    private PatternSpelling() {
    }

    /** Checks the path as written ({@code rawPath}: from the first {@code /} after the authority). */
    static void checkWritten(String pattern, String rawPath) {
        for (int i = rawPath.indexOf('%'); i >= 0 && i + 2 < rawPath.length(); i = rawPath.indexOf('%', i + 1)) {
            int hi = Character.digit(rawPath.charAt(i + 1), 16);
            int lo = Character.digit(rawPath.charAt(i + 2), 16);
            char c = (char) ((hi << 4) | lo);
            if (hi >= 0 && lo >= 0 && PATTERN_CHARACTERS.indexOf(c) >= 0) {
                throw new IllegalArgumentException("'" + c + "' is percent-encoded as '" + rawPath.substring(i, i + 3)
                        + "' in resource pattern '" + pattern + "': write * $ { } as themselves (a pattern cannot"
                        + " match a literal '*' alone)");
            }
        }
        if (rawPath.endsWith("/")) {
            // Canonical URIs end without one, so the pattern would name the folder alone, never what it holds: a deny
            // written so for a folder would protect nothing in it.
            String folder = pattern.substring(0, pattern.length() - 1);
            throw new IllegalArgumentException("resource pattern '" + pattern + "' ends in '/', which names the folder"
                    + " itself, not what it holds: write '" + folder + "/**' for everything under it, or '" + folder
                    + "' for the folder alone");
        }
        for (String segment : rawPath.split("/")) {
            String dots = segment.replace("%2E", ".").replace("%2e", ".");
            if (dots.equals(".") || dots.equals("..")) {
                throw new IllegalArgumentException("dot-segment '" + segment + "' in resource pattern '" + pattern
                        + "': dot-segments are not allowed, written plainly or percent-encoded");
            }
        }
    }

    /** Checks that canonicalising kept every segment written (doubled slashes aside). */
    static void checkKept(String pattern, String rawPath, List<String> canonical) {
        long written = java.util.Arrays.stream(rawPath.split("/")).filter(s -> !s.isEmpty()).count();
        if (written != canonical.size()) {
            throw new IllegalArgumentException("resource pattern '" + pattern + "' has " + written
                    + " segments as written but " + canonical.size() + " once canonical: every segment must stay");
        }
    }
}
