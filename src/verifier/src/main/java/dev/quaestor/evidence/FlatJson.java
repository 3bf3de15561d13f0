package dev.quaestor.evidence;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One flat JSON object, every export line's shape (docs/audit-format.md, section 6): string or number values, numbers
 * kept as written. Strict (RFC 8259, no duplicate names, no lone surrogates), saying what is wrong and where.
 */
public final class FlatJson {

    /** A line that is not one flat JSON object of strings and numbers. */
    public static final class Malformed extends IllegalArgumentException {
        private final long line;
        private final String detail;

        public Malformed(long line, String detail) {
            super("line " + Plain.n(line) + ": " + detail);
            this.line = line;
            this.detail = detail;
        }

        public long line() {
            return line;
        }

        /** What is wrong, without the line number. */
        public String detail() {
            return detail;
        }
    }

    private final String s;
    private final long line;
    private final boolean nullMeansAbsent;
    private int at;

    private FlatJson(String s, long line, boolean nullMeansAbsent) {
        this.s = s;
        this.line = line;
        this.nullMeansAbsent = nullMeansAbsent;
    }

    /** Reads one object; its values in the order written. */
    public static Map<String, String> read(String text, long line) {
        return new FlatJson(text, line, false).object();
    }

    /** As {@link #read}, but {@code null} is an absent name, left out (version-1 exports wrote absent fields so). */
    public static Map<String, String> readAllowingNull(String text, long line) {
        return new FlatJson(text, line, true).object();
    }

    private Map<String, String> object() {
        var out = new LinkedHashMap<String, String>(64);
        space();
        expect('{', "a line must be one JSON object, starting with '{'");
        space();
        if (peek() == '}') {
            at++;
        } else {
            while (true) {
                space();
                if (peek() != '"') {
                    throw fail("expected a name in double quotes");
                }
                int nameAt = at;
                String name = string();
                space();
                expect(':', "expected ':' after the name \"" + name + "\"");
                space();
                String value = value(name);
                if (out.containsKey(name)) {
                    at = nameAt;
                    throw fail("the name \"" + name + "\" appears twice");
                }
                out.put(name, value); // a null (absent) is kept until the end, to refuse a repeat
                space();
                char c = peek();
                if (c == ',') {
                    at++;
                    continue;
                }
                expect('}', "expected ',' or '}' after the value of \"" + name + "\"");
                break;
            }
        }
        space();
        if (at != s.length()) {
            throw fail("unexpected text after the object");
        }
        out.values().removeIf(v -> v == null);
        return out;
    }

    private String value(String name) {
        char c = peek();
        if (c == '"') {
            return string();
        }
        if (c == '-' || c >= '0' && c <= '9') {
            return number();
        }
        if (s.startsWith("null", at) && nullMeansAbsent) {
            at += 4;
            return null;
        }
        if (c == '{' || c == '[') {
            throw fail("the value of \"" + name + "\" is nested; only strings and numbers are allowed");
        }
        if (s.startsWith("true", at) || s.startsWith("false", at) || s.startsWith("null", at)) {
            throw fail("the value of \"" + name + "\" is true, false or null; only strings and numbers are allowed");
        }
        throw fail("the value of \"" + name + "\" is not a string or a number");
    }

    /** RFC 8259 number; returned as written. */
    private String number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
        } else if (peek() >= '1' && peek() <= '9') {
            digits();
        } else {
            throw fail("malformed number");
        }
        if (peek() == '.') {
            at++;
            digitsAfter("'.'");
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            digitsAfter("the exponent");
        }
        return s.substring(start, at);
    }

    private void digitsAfter(String what) {
        if (!(peek() >= '0' && peek() <= '9')) {
            throw fail("malformed number: a digit must follow " + what);
        }
        digits();
    }

    private void digits() {
        while (peek() >= '0' && peek() <= '9') {
            at++;
        }
    }

    private String string() {
        at++; // the opening quote
        var sb = new StringBuilder();
        while (true) {
            if (at >= s.length()) {
                throw fail("a string is not closed");
            }
            char c = s.charAt(at++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                at--;
                throw fail("a control character (code " + (int) c + ") inside a string must be escaped");
            }
            if (c != '\\') {
                if (Character.isHighSurrogate(c) && at < s.length() && Character.isLowSurrogate(s.charAt(at))) {
                    sb.append(c).append(s.charAt(at++));
                } else if (Character.isSurrogate(c)) {
                    at--;
                    throw fail("a string holds a lone surrogate");
                } else {
                    sb.append(c);
                }
                continue;
            }
            if (at >= s.length()) {
                throw fail("a string is not closed");
            }
            char e = s.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    char u = hex4();
                    if (Character.isHighSurrogate(u)) {
                        if (!s.startsWith("\\u", at)) {
                            throw fail("\\u" + Integer.toHexString(u) + " starts a surrogate pair that is not completed");
                        }
                        at += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw fail("\\u" + Integer.toHexString(u) + " starts a surrogate pair that is not completed");
                        }
                        sb.append(u).append(low);
                    } else if (Character.isLowSurrogate(u)) {
                        throw fail("\\u" + Integer.toHexString(u) + " is half of a surrogate pair, alone");
                    } else {
                        sb.append(u);
                    }
                }
                default -> {
                    at -= 2;
                    throw fail("unknown escape \\" + e + " in a string");
                }
            }
        }
    }

    private char hex4() {
        if (at + 4 > s.length()) {
            throw fail("\\u must be followed by four hex digits");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            char c = s.charAt(at + i);
            int d = c < 0x80 ? Character.digit(c, 16) : -1; // 0-9, a-f, A-F: not other scripts' digits
            if (d < 0) {
                throw fail("\\u must be followed by four hex digits");
            }
            v = v * 16 + d;
        }
        at += 4;
        return (char) v;
    }

    private void space() {
        while (at < s.length()) {
            char c = s.charAt(at);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            at++;
        }
    }

    private char peek() {
        return at < s.length() ? s.charAt(at) : '\0';
    }

    private void expect(char c, String message) {
        if (peek() != c || at >= s.length()) {
            throw fail(message);
        }
        at++;
    }

    private Malformed fail(String message) {
        return new Malformed(line, message + " (at character " + (at + 1) + ")");
    }
}
