package dev.quaestor.audit;

import java.util.Map;

/** One export line: a flat JSON object of string and number values, then a newline. */
final class ExportJson {

    private ExportJson() {
    }

    static String line(Map<String, Object> values) {
        var sb = new StringBuilder(512).append('{');
        boolean first = true;
        for (var e : values.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            quote(e.getKey(), sb);
            sb.append(':');
            Object v = e.getValue();
            if (v instanceof Number n) {
                sb.append(n);
            } else {
                quote(String.valueOf(v), sb);
            }
        }
        return sb.append("}\n").toString();
    }

    private static void quote(String v, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        sb.append('"');
    }
}
