package dev.quaestor.console;

import java.util.List;

/**
 * Checks of the search form's values as given in its address: each refuses a value the search cannot take with an
 * {@link IllegalArgumentException} naming the field, the value (cut to {@value #SHOWN} characters) and what the
 * field takes, so that a mistyped value is never read as another question.
 */
final class SearchFormCheck {

    /** How much of a value an error quotes. */
    static final int SHOWN = 64;

    private SearchFormCheck() {
    }

    /** {@code value}, trimmed, if it is one of {@code accepted} (exactly as written); null when blank (any). */
    static String oneOf(String field, String value, List<String> accepted) {
        if (SearchForm.blank(value)) {
            return null;
        }
        String v = value.trim();
        if (!accepted.contains(v)) {
            throw new IllegalArgumentException("'" + field + "' is not one of the values it takes: " + quoted(v) + ". Use one of "
                    + String.join(", ", accepted) + " (exactly as written), or leave it empty");
        }
        return v;
    }

    /** A whole number from {@code min} to {@code max}, in decimal digits; null when blank. */
    static Long number(String field, String value, long min, long max, String what) {
        if (SearchForm.blank(value)) {
            return null;
        }
        String v = value.trim();
        if (v.matches("[0-9]{1,19}")) {
            try {
                long n = Long.parseLong(v);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // past a long: said below
            }
        }
        throw new IllegalArgumentException("'" + field + "' is " + what + ": a whole number from " + min
                + (max == Long.MAX_VALUE ? " up" : " to " + max) + "; got " + quoted(v));
    }

    /**
     * A text field's value, stripped of surrounding white space; null when blank (any). A NUL character is refused: no
     * record can hold one, and trimming it away would ask another question ({@code %00x} would search for {@code x}).
     */
    static String text(String field, String value) {
        if (SearchForm.blank(value)) {
            return null;
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("'" + field + "' holds a NUL character (%00), which no record holds: "
                    + quoted(value.replace("\0", "%00")) + ". Remove it");
        }
        return value.strip();
    }

    /**
     * Refuses a parameter given more than once ({@code twice}: why that matters here) or one not among {@code names}
     * ({@code unknown}: likewise): a page or file must answer the question its address asks, not the first half of it.
     */
    static void onlyThese(jakarta.ws.rs.core.MultivaluedMap<String, String> given, java.util.Collection<String> names,
            String twice, String unknown) {
        for (var e : given.entrySet()) {
            if (e.getValue().size() > 1) {
                throw new IllegalArgumentException(quoted(e.getKey()) + " is given " + e.getValue().size()
                        + " times: it takes one value, and " + twice);
            }
        }
        for (String name : given.keySet()) {
            if (!names.contains(name)) {
                throw new IllegalArgumentException(quoted(name) + " is not a parameter it takes: " + unknown + ". It takes "
                        + String.join(", ", names.stream().sorted().toList()));
            }
        }
    }

    static String quoted(String s) {
        return "\"" + (s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "… (" + s.length() + " characters)") + "\"";
    }
}
