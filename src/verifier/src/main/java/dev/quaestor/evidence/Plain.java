package dev.quaestor.evidence;

import java.util.Locale;

/** Numbers as people read them in messages (1,234,567), and values from evidence shown safely. */
public final class Plain {

    private Plain() {
    }

    public static String n(long value) {
        return String.format(Locale.ENGLISH, "%,d", value);
    }

    /** Control and format characters (U+202E, U+2066 to U+2069…) escaped, so a value cannot fake or reorder output lines. */
    public static String visible(String s) {
        var sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int cp = s.codePointAt(i);
            if (Character.getType(cp) == Character.FORMAT) {
                for (char half : Character.toChars(cp)) {
                    sb.append(String.format("\\u%04x", (int) half));
                }
                i += Character.charCount(cp) - 1;
                continue;
            }
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c >= 0x80 && c < 0xa0) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
