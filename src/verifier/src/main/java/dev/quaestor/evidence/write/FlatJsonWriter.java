package dev.quaestor.evidence.write;

import dev.quaestor.evidence.FlatJson;
import java.util.Map;

/** Writes one flat JSON object on one line (docs/audit-format.md, section 6): what {@link FlatJson} reads back unchanged. */
public final class FlatJsonWriter {

    private FlatJsonWriter() {
    }

    /**
     * Writes {@code fields} as one object, in their iteration order, without a line end. A
     * {@link String} is written as a JSON string, a {@link Long} or {@link Integer} as a number; a
     * null value is left out.
     */
    public static String write(Map<String, ?> fields) {
        var sb = new StringBuilder(512);
        write(fields, sb);
        return sb.toString();
    }

    public static void write(Map<String, ?> fields, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (var e : fields.entrySet()) {
            Object v = e.getValue();
            if (v == null) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            string(e.getKey(), out);
            out.append(':');
            if (v instanceof String s) {
                string(s, out);
            } else if (v instanceof Long || v instanceof Integer) {
                out.append(v);
            } else {
                throw new IllegalArgumentException("a flat JSON value is a string or a whole number, not " + v.getClass().getSimpleName());
            }
        }
        out.append('}');
    }

    /** A JSON string: quotes, backslashes and control characters escaped (U+2028/9 too); text otherwise as is. */
    public static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isSurrogate(c)) {
                        if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                            out.append(c).append(s.charAt(++i));
                        } else {
                            throw new IllegalArgumentException("a string holds a lone surrogate (not text) at " + i);
                        }
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

}
