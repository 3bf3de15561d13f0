package dev.quaestor.cases;

/** Checks of what staff type into a case: present, not longer than its column holds, and text its column can hold. */
final class Checked {

    private Checked() {
    }

    /**
     * {@code value} stripped; refused when blank, longer than {@code max} characters, or holding a NUL character (no
     * column holds one: PostgreSQL's text has none).
     */
    static String text(String what, String value, int max) {
        String v = value == null ? "" : value.strip();
        if (v.isEmpty()) {
            throw CaseRefusal.invalid(what + " is required");
        }
        if (v.length() > max) {
            throw CaseRefusal.invalid(what + " is longer than " + max + " characters");
        }
        noNul(what, v);
        return v;
    }

    /** Refuses {@code value} if it holds a NUL character. */
    static void noNul(String what, String value) {
        if (value.indexOf('\0') >= 0) {
            throw CaseRefusal.invalid(what + " holds a NUL character (\\u0000, %00): give text without one");
        }
    }

    /** As {@link #text}, but null when blank. */
    static String optional(String what, String value, int max) {
        return value == null || value.isBlank() ? null : text(what, value, max);
    }
}
