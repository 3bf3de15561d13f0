package dev.quaestor.cases;

/** Checks of what staff type into a case: present, and not longer than its column holds. */
final class Checked {

    private Checked() {
    }

    /** {@code value} stripped; refused when blank or longer than {@code max} characters. */
    static String text(String what, String value, int max) {
        String v = value == null ? "" : value.strip();
        if (v.isEmpty()) {
            throw CaseRefusal.invalid(what + " is required");
        }
        if (v.length() > max) {
            throw CaseRefusal.invalid(what + " is longer than " + max + " characters");
        }
        return v;
    }

    /** As {@link #text}, but null when blank. */
    static String optional(String what, String value, int max) {
        return value == null || value.isBlank() ? null : text(what, value, max);
    }
}
