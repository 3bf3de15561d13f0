package dev.quaestor.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * An administrator's JSON request body read strictly: a field the request does not know ({@code rolez}, {@code snice})
 * or a value of the wrong type is a 400 naming the field and what it takes, never ignored (an ignored field answers a
 * different question than the one asked) and never a serializer's own words.
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
        this.mapper = mapper;
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
