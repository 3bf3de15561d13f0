package dev.quaestor.provider;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Opaque listing cursors for providers: a tag naming the provider's cursor format and its fields, NUL-separated
 * UTF-8 in unpadded URL-safe base64. A cursor that does not decode, has another tag, the wrong number of fields or an
 * empty field is refused with {@link InvalidCursorException}, so a client cannot steer a listing with a forged one
 * beyond what the fields themselves allow (a provider still checks their values).
 */
public final class CursorCodec {

    private static final String SEPARATOR = "\u0000";

    private CursorCodec() {
    }

    /** The cursor for {@code fields} (none may contain a NUL) under {@code tag}. */
    public static String encode(String tag, String... fields) {
        var raw = new StringBuilder(tag);
        for (String f : fields) {
            if (f.contains(SEPARATOR)) {
                throw new IllegalArgumentException("a cursor field cannot contain NUL");
            }
            raw.append(SEPARATOR).append(f);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The {@code count} fields of a cursor made by {@link #encode} with {@code tag}. */
    public static List<String> decode(String cursor, String tag, int count) {
        String[] parts;
        try {
            parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split(SEPARATOR, -1);
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException();
        }
        if (parts.length != count + 1 || !parts[0].equals(tag)) {
            throw new InvalidCursorException();
        }
        List<String> fields = Arrays.asList(parts).subList(1, parts.length);
        if (fields.stream().anyMatch(String::isEmpty)) {
            throw new InvalidCursorException();
        }
        return fields;
    }
}
