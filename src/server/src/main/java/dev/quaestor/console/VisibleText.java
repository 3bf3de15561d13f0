package dev.quaestor.console;

/**
 * A recorded value as a page shows it: a character that cannot be seen or that changes how the text around it is laid
 * out (a control character other than line feed and tab, a format character such as the right-to-left override
 * U+202E or a zero-width space, a line or paragraph separator) is written as {@code ⟨U+202E⟩}. So a client name or user agent that a caller chose
 * reads as the characters it holds, not as a browser lays them out; the record itself keeps them as sent.
 */
final class VisibleText {

    private VisibleText() {
    }

    static String of(String s) {
        if (s == null || s.codePoints().noneMatch(VisibleText::hidden)) {
            return s;
        }
        var out = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> {
            if (hidden(c)) {
                out.append(String.format("⟨U+%04X⟩", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static boolean hidden(int c) {
        int type = Character.getType(c);
        return c != '\n' && c != '\t' && (type == Character.CONTROL || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR);
    }
}
