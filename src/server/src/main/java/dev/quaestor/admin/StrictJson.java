package dev.quaestor.admin;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * An administrator's JSON request body read strictly: a field the request does not know ({@code rolez}, {@code snice}),
 * a value of the wrong type, a field given twice ({@link #givenTwiceAt}) or text with a NUL character ({@link #nulAt})
 * is a 400 naming the field and what it takes, never ignored (an ignored field answers a different question than the
 * one asked), never a server error, and never a serializer's own words.
 */
@ApplicationScoped
public class StrictJson {

    /** The body read: its value (null for an empty body), or why it was refused. */
    public record Read<T>(T value, String error, String field) {

        public boolean refused() {
            return error != null;
        }

        /** The 400 answer: {@code {"error": …, "field": …}}. */
        public Response response() {
            var body = new LinkedHashMap<String, Object>();
            body.put("error", error);
            if (field != null) {
                body.put("field", field);
            }
            return Response.status(400).entity(body).build();
        }
    }

    private final ObjectMapper mapper;

    StrictJson(ObjectMapper mapper) {
        // No value is converted to another type: "depth": "2", "examples": 1.5 and "roles": [1] are refused, naming
        // the field, rather than read as a number, a whole number and a role named "1".
        var strict = mapper.copy();
        strict.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        strict.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        strict.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        strict.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        // A time only as written (ISO-8601 with an offset): the time module would read a number as seconds since 1970.
        strict.registerModule(new com.fasterxml.jackson.databind.module.SimpleModule().addDeserializer(Instant.class, new WrittenTime()));
        this.mapper = strict;
    }

    /** An instant read only from a string in ISO-8601 with an offset; anything else is the field's mismatch. */
    private static final class WrittenTime extends com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer<Instant> {
        WrittenTime() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt) throws java.io.IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                return (Instant) ctxt.handleUnexpectedToken(Instant.class, p);
            }
            try {
                return java.time.OffsetDateTime.parse(p.getText()).toInstant();
            } catch (java.time.format.DateTimeParseException e) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, p.getText(), "not an ISO-8601 time with an offset");
            }
        }
    }

    /** Room for a refused body on record: enough to see what was asked, bounded whatever was sent. */
    private static final int SENT_ON_RECORD = 300;

    /**
     * What a body that could not be read asked, for the call's record: {@code body as sent: …}, its first 300
     * characters with line breaks and other control characters escaped, and how long it was if it was cut.
     */
    public static String asSent(String body) {
        var out = new StringBuilder("body as sent: ");
        int end = Math.min(body.length(), SENT_ON_RECORD);
        for (int i = 0; i < end; i++) {
            char c = body.charAt(i);
            if (c == '\n') {
                out.append("\\n");
            } else if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return end < body.length() ? out.append("… (").append(body.length()).append(" characters)").toString() : out.toString();
    }

    public <T> Read<T> read(String body, Class<T> type) {
        if (body == null || body.isBlank()) {
            return new Read<>(null, null, null);
        }
        ObjectReader reader = mapper.readerFor(type).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        String nul = nulAt(body);
        if (nul != null) {
            return new Read<>(null, nulRefused(nul), nul.isEmpty() ? null : nul);
        }
        String half = loneSurrogateAt(body);
        if (half != null) {
            return new Read<>(null, loneSurrogateRefused(half), half.isEmpty() ? null : half);
        }
        String twice = givenTwiceAt(body);
        if (twice != null) {
            return new Read<>(null, "field '" + twice + "' is given twice: give it once", twice);
        }
        try {
            return new Read<>(reader.readValue(body), null, null);
        } catch (UnrecognizedPropertyException e) {
            String field = path(e);
            var known = new TreeSet<String>();
            e.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
            return new Read<>(null, "unknown field '" + field + "'; the fields are " + String.join(", ", known), field);
        } catch (MismatchedInputException e) {
            String field = path(e);
            if (field.isEmpty()) {
                return new Read<>(null, "the body must be a JSON object", null);
            }
            return new Read<>(null, "field '" + field + "' must be " + expected(e.getTargetType()), field);
        } catch (JsonMappingException e) {
            if (e.getCause() instanceof InputCoercionException big && !path(e).isEmpty()) {
                // A number too large for the field (99999999999 where a whole number up to 2^31 is taken): still JSON.
                return new Read<>(null, "field '" + path(e) + "' must be " + expected(big.getTargetType()) + " in range", path(e));
            }
            if (e.getCause() instanceof StreamReadException broken) {
                // JSON cut short or broken inside a field's value: not JSON, whatever field it was in.
                return notJson(broken);
            }
            String field = path(e);
            return new Read<>(null, field.isEmpty() ? "the body is not a valid request: " + e.getOriginalMessage()
                    : "field '" + field + "' is not valid: " + e.getOriginalMessage(), field.isEmpty() ? null : field);
        } catch (JsonProcessingException e) {
            return notJson(e);
        }
    }

    /**
     * Where in the JSON {@code body} a name or string value holds a NUL character (U+0000): its field, as a
     * refusal names it ({@code search.subject}, {@code requestIds[0]}); null if none does, or if the body is not JSON
     * (which reading it says). No record can hold a NUL (PostgreSQL's text has none), so a body with one is refused
     * before anything is read or stored, as a query value with one is ({@link QueryCheck#only}).
     */
    public String nulAt(String body) {
        if (body == null || body.indexOf("\\u0000") < 0 && body.indexOf('\0') < 0) {
            return null;
        }
        try (JsonParser p = mapper.getFactory().createParser(body)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if ((t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) && p.getText().indexOf('\0') >= 0) {
                    return where(p.getParsingContext());
                }
            }
        } catch (java.io.IOException e) {
            return null; // not JSON: reading it says so
        }
        return null;
    }

    /**
     * The first field of the JSON {@code body} whose name its object holds twice ({@code subject}, {@code search.to}),
     * as a refusal names it; null if none is, or if the body is not JSON (which reading it says). The reader would keep
     * the last one given and answer a question other than the one the caller may think they asked.
     */
    String givenTwiceAt(String body) {
        try (JsonParser p = mapper.getFactory().createParser(body)) {
            var names = new java.util.ArrayDeque<java.util.Set<String>>();
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.START_OBJECT) {
                    names.push(new java.util.HashSet<>());
                } else if (t == JsonToken.END_OBJECT) {
                    names.pop();
                } else if (t == JsonToken.FIELD_NAME && !names.peek().add(p.currentName())) {
                    return where(p.getParsingContext());
                }
            }
        } catch (java.io.IOException e) {
            return null; // not JSON: reading it says so
        }
        return null;
    }

    /** Why a body with a NUL character at {@code field} is refused. */
    /**
     * Where in the JSON {@code body} a name or string value holds half of a UTF-16 surrogate pair without the other
     * ({@code "\ud800"}): its field, as {@link #nulAt} names it; null if none does or the body is not JSON. Such a
     * string is no Unicode text: PostgreSQL would keep a {@code ?} in its place, and the answer would echo what is not
     * stored (a note, which can never be changed, would lose it for good).
     */
    public String loneSurrogateAt(String body) {
        if (body == null || body.indexOf("\\u") < 0) {
            return null; // JSON writes such a half only as an escape: read as UTF-8, the body itself holds none
        }
        try (JsonParser p = mapper.getFactory().createParser(body)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if ((t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) && hasLoneSurrogate(p.getText())) {
                    return where(p.getParsingContext());
                }
            }
        } catch (java.io.IOException e) {
            return null; // not JSON: reading it says so
        }
        return null;
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    public static String loneSurrogateRefused(String field) {
        return (field.isEmpty() ? "the body" : "field '" + field + "'")
                + " holds half of a UTF-16 surrogate pair without its other half (such as \\ud800), which is no text:"
                + " give text without one";
    }

    public static String nulRefused(String field) {
        return (field.isEmpty() ? "the body" : "field '" + field + "'")
                + " holds a NUL character (\\u0000): give text without one";
    }

    /** The field the parser is at, as {@link #path} names one. */
    private static String where(JsonStreamContext at) {
        var parts = new java.util.ArrayDeque<String>();
        for (JsonStreamContext c = at; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.push("[" + Math.max(c.getCurrentIndex(), 0) + "]");
            } else if (c.getCurrentName() != null) {
                // A name with a NUL is named escaped, as JSON writes it: the refusal's record cannot hold a NUL either.
                String name = c.getCurrentName().replace("\0", "\\u0000");
                parts.push((c.getParent() != null && c.getParent().inRoot() ? "" : ".") + name);
            }
        }
        return String.join("", parts);
    }

    /** A body that is not JSON, said with where (line and column) and nothing of the parser's own words. */
    private static <T> Read<T> notJson(JsonProcessingException e) {
        var where = e.getLocation();
        return new Read<>(null, "the body is not JSON" + (where == null ? "" : " (at line " + where.getLineNr()
                + ", column " + where.getColumnNr() + ")"), null);
    }

    /** {@code roles}, {@code roles[1]}, {@code files.a.yaml}: where in the body the problem is. */
    private static String path(JsonMappingException e) {
        var out = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                out.append(out.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                out.append('[').append(r.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "an array of strings";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object of names to strings";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Instant.class) {
            return "an ISO-8601 time with an offset, e.g. 2026-03-04T10:00:00Z";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        return "a " + type.getSimpleName();
    }
}
