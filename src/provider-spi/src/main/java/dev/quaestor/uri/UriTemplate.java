package dev.quaestor.uri;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An RFC 6570 URI template of level 1 or 2: literals and one-variable expressions {@code {var}}
 * (simple string: everything but unreserved characters is percent-encoded), {@code {+var}}
 * (reserved: reserved characters and percent-triplets pass through) and {@code {#var}} (fragment).
 * It expands values into a URI and matches a URI back to its values.
 *
 * <p>Matching runs on a canonical URI's wire form ({@link CanonicalUri#toString()}): {@code {var}}
 * matches one non-empty run without {@code /}, {@code {+var}} a non-empty run that may span
 * segments, and matched values are percent-decoded (strict UTF-8). When two expressions could split
 * a URI differently, earlier expressions take as much as they can. Level-3+ forms (several
 * variables in one expression, the {@code / . ; ? &} operators, {@code :n} and {@code *}
 * modifiers) are refused with a message naming the expression.
 */
public final class UriTemplate {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    private record Part(String literal, char operator, String variable) {
        boolean isLiteral() {
            return variable == null;
        }
    }

    private final String text;
    private final List<Part> parts;
    private final List<String> variables;
    private final Pattern matcher;

    private UriTemplate(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
        var vars = new ArrayList<String>();
        var regex = new StringBuilder("^");
        for (Part p : parts) {
            if (p.isLiteral()) {
                regex.append(Pattern.quote(p.literal()));
                continue;
            }
            if (vars.contains(p.variable())) {
                throw new IllegalArgumentException("URI template " + text + " uses {" + p.variable() + "} twice");
            }
            vars.add(p.variable());
            switch (p.operator()) {
                case '+' -> regex.append("([^?#]+)");
                case '#' -> regex.append("(?:#(.*))?");
                default -> regex.append("([^/?#]+)");
            }
        }
        this.variables = Collections.unmodifiableList(vars);
        this.matcher = Pattern.compile(regex.append('$').toString());
    }

    /** Parses a template, or throws {@link IllegalArgumentException} saying what is wrong. */
    public static UriTemplate parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("URI template is empty");
        }
        var parts = new ArrayList<Part>();
        int i = 0;
        while (i < text.length()) {
            int open = text.indexOf('{', i);
            int close = text.indexOf('}', i);
            if (close >= 0 && (open < 0 || close < open)) {
                throw new IllegalArgumentException("URI template " + text + " has a '}' without '{' at " + close);
            }
            if (open < 0) {
                parts.add(new Part(text.substring(i), '\0', null));
                break;
            }
            if (open > i) {
                parts.add(new Part(text.substring(i, open), '\0', null));
            }
            if (close < 0) {
                throw new IllegalArgumentException("URI template " + text + " has an unclosed '{' at " + open);
            }
            String expr = text.substring(open + 1, close);
            char op = expr.isEmpty() ? '\0' : expr.charAt(0);
            String name = (op == '+' || op == '#') ? expr.substring(1) : expr;
            if (op != '+' && op != '#') {
                op = '\0';
            }
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("URI template " + text + ": expression {" + expr
                        + "} is not supported (level 1-2 only: {name}, {+name}, {#name}; name = letters, digits, _)");
            }
            if (!parts.isEmpty() && !parts.get(parts.size() - 1).isLiteral()) {
                throw new IllegalArgumentException("URI template " + text + ": {" + expr
                        + "} directly follows another expression, so values could not be told apart");
            }
            parts.add(new Part(null, op, name));
            i = close + 1;
        }
        for (Part p : parts) {
            if (p.isLiteral() && (p.literal().indexOf('?') >= 0 || p.literal().indexOf('#') >= 0)) {
                throw new IllegalArgumentException("URI template " + text + " has a query or fragment in its literal text");
            }
        }
        return new UriTemplate(text, parts);
    }

    public String text() {
        return text;
    }

    /** Variable names in order of appearance. */
    public List<String> variables() {
        return variables;
    }

    /** The literal text before the first expression. */
    public String literalPrefix() {
        return parts.isEmpty() || !parts.get(0).isLiteral() ? "" : parts.get(0).literal();
    }

    /** Expands the template; a missing value expands to nothing, as RFC 6570 says for undefined variables. */
    public String expand(Map<String, String> values) {
        var out = new StringBuilder(text.length() + 32);
        for (Part p : parts) {
            if (p.isLiteral()) {
                out.append(p.literal());
                continue;
            }
            String v = values.get(p.variable());
            if (v == null) {
                continue;
            }
            if (p.operator() == '#') {
                out.append('#');
            }
            encode(v, p.operator() != '\0', out);
        }
        return out.toString();
    }

    /** The values of a URI this template matches, by variable name, or empty if it does not match. */
    public Optional<Map<String, String>> match(String uri) {
        Matcher m = matcher.matcher(uri);
        if (!m.matches()) {
            return Optional.empty();
        }
        var values = new LinkedHashMap<String, String>();
        for (int g = 0; g < variables.size(); g++) {
            String raw = m.group(g + 1);
            if (raw == null) {
                continue;
            }
            String decoded = decode(raw);
            if (decoded == null) {
                return Optional.empty();
            }
            values.put(variables.get(g), decoded);
        }
        return Optional.of(Collections.unmodifiableMap(values));
    }

    /** Matches a canonical URI (by its wire form). */
    public Optional<Map<String, String>> match(CanonicalUri uri) {
        return match(uri.toString());
    }

    private static void encode(String value, boolean allowReserved, StringBuilder out) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            int c = bytes[i] & 0xff;
            if (isUnreserved(c) || (allowReserved && isReserved(c))) {
                out.append((char) c);
            } else if (allowReserved && c == '%' && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
                out.append('%').append((char) bytes[i + 1]).append((char) bytes[i + 2]);
                i += 2;
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
    }

    /** Strict percent-decoding; null if a triplet is malformed or the bytes are not UTF-8. */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        var bytes = new ByteArrayOutputStream(s.length());
        byte[] raw = s.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%') {
                if (i + 2 >= raw.length || !isHex(raw[i + 1]) || !isHex(raw[i + 2])) {
                    return null;
                }
                bytes.write(Character.digit(raw[i + 1], 16) << 4 | Character.digit(raw[i + 2], 16));
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    private static boolean isUnreserved(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static boolean isReserved(int c) {
        return ":/?#[]@!$&'()*+,;=".indexOf(c) >= 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
