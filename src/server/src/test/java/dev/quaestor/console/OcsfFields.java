package dev.quaestor.console;

import com.fasterxml.jackson.databind.JsonNode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fields OCSF 1.8.0 requires of the events the console exports, checked one by one (no schema package is
 * served here): activity_id; category_uid; class_uid; type_uid = class_uid × 100 + activity_id; severity_id;
 * time; metadata.product and metadata.version; and, for API Activity, actor with a user, api.operation and
 * src_endpoint with an IP; the security_control profile named, with its disposition, action and policy filled.
 */
final class OcsfFields {

    private OcsfFields() {
    }

    static void check(JsonNode e) {
        String s = e.toString();
        int classUid = e.path("class_uid").asInt();
        assertTrue(classUid == 6003 || classUid == 3002, s);
        assertTrue(e.path("activity_id").isInt(), s);
        assertEquals(classUid == 6003 ? 6 : 3, e.path("category_uid").asInt(), s);
        assertEquals(classUid * 100L + e.path("activity_id").asInt(), e.path("type_uid").asLong(), s);
        assertTrue(e.path("severity_id").isInt(), s);
        assertTrue(e.path("time").isIntegralNumber() && e.path("time").asLong() > 1_600_000_000_000L, s);
        assertTrue(e.path("metadata").path("product").isObject(), s);
        assertFalse(e.path("metadata").path("product").path("name").asText().isEmpty(), s);
        assertEquals("1.8.0", e.path("metadata").path("version").asText(), s);
        boolean profile = false;
        for (JsonNode p : e.path("metadata").path("profiles")) {
            profile |= p.asText().equals("security_control");
        }
        assertTrue(profile, s);
        assertTrue(e.path("disposition_id").isInt() && !e.path("disposition").asText().isEmpty(), s);
        assertTrue(e.path("action_id").isInt() && !e.path("action").asText().isEmpty(), s);
        assertFalse(e.path("policy").path("name").asText().isEmpty(), s);
        assertTrue(e.path("src_endpoint").path("ip").isTextual() && !e.path("src_endpoint").path("ip").asText().isEmpty(), s);
        if (classUid == 6003) {
            assertTrue(e.path("actor").path("user").isObject() && e.path("actor").path("user").size() > 0, s);
            assertFalse(e.path("api").path("operation").asText().isEmpty(), s);
        } else {
            assertTrue(e.path("user").isObject(), s);
        }
    }
}
