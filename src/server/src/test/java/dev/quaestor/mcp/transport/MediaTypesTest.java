package dev.quaestor.mcp.transport;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Content-Type by type and subtype; Accept by weight, the most specific range deciding (RFC 9110, 12.5.1). */
class MediaTypesTest {

    @Test
    void jsonIsItsTypeAndSubtypeWhateverFollows() {
        for (String t : List.of("application/json", "Application/JSON", " application/json ; charset=utf-8", "application/json;x=y")) {
            assertTrue(MediaTypes.isJson(t), t);
        }
        for (String t : List.of("application/jsonx", "application/json-seq", "application/json+xml", "application/json/extra",
                "text/json", "", "application")) {
            assertFalse(MediaTypes.isJson(t), t);
        }
    }

    @Test
    void theMostSpecificRangeDecidesAndZeroRefuses() {
        String json = MediaTypes.JSON;
        assertEquals(1, MediaTypes.quality(null, json));
        assertEquals(1, MediaTypes.quality(" ", json));
        assertEquals(1, MediaTypes.quality("application/json, text/event-stream", json));
        assertEquals(0.5, MediaTypes.quality("*/*;q=0.5", json));
        assertEquals(0.3, MediaTypes.quality("application/*;q=0.3, */*", json));
        assertEquals(0, MediaTypes.quality("*/*, application/json;q=0", json));
        assertEquals(0, MediaTypes.quality("application/jsonx", json));
        assertEquals(0, MediaTypes.quality("text/event-stream", json));
        assertEquals(1, MediaTypes.quality("text/*", MediaTypes.EVENT_STREAM));
        assertEquals(0, MediaTypes.quality("text/event-streamx", MediaTypes.EVENT_STREAM));
        // A weight that is not one is left out, as if the range were not there.
        assertEquals(0, MediaTypes.quality("application/json;q=high", json));
        assertEquals(0.2, MediaTypes.quality("*/*;q=0.2, application/json;q=2", json));
    }
}
