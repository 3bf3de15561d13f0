package dev.quaestor.provider.database;

import dev.quaestor.provider.CursorCodec;
import dev.quaestor.provider.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A database listing's cursor: the query to go on with and the key of the last row listed from it (its template
 * variables' values, in order), or no key to start that query from its first row.
 */
record ListCursor(String query, List<String> after) {

    private static final String TAG = "d2";
    private static final String NO_KEY = "-";

    static String encode(String query, List<String> after) {
        if (after == null) {
            return CursorCodec.encode(TAG, query, NO_KEY);
        }
        var parts = new ArrayList<String>(after.size());
        for (String v : after) {
            parts.add(Base64.getUrlEncoder().withoutPadding().encodeToString(v.getBytes(StandardCharsets.UTF_8)));
        }
        return CursorCodec.encode(TAG, query, "k" + String.join(".", parts));
    }

    static ListCursor decode(String cursor) {
        List<String> fields = CursorCodec.decode(cursor, TAG, 2);
        String key = fields.get(1);
        if (key.equals(NO_KEY)) {
            return new ListCursor(fields.get(0), null);
        }
        if (!key.startsWith("k")) {
            throw new InvalidCursorException();
        }
        var values = new ArrayList<String>();
        try {
            for (String part : key.substring(1).split("\\.", -1)) {
                values.add(new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8));
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException();
        }
        return new ListCursor(fields.get(0), List.copyOf(values));
    }
}
