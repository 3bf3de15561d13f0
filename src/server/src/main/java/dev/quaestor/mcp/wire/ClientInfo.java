package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;

/** The client's name and version as recorded in the audit trail ({@code name/version}), from either generation's message. */
public final class ClientInfo {

    /** The longest client name/version recorded. */
    private static final int MAX = 256;

    private ClientInfo() {
    }

    /** {@code name/version} from an {@code Implementation} object, or null. */
    public static String of(JsonNode info) {
        if (info == null || !info.isObject() || !info.path("name").isTextual()) {
            return null;
        }
        String s = info.get("name").asText() + (info.path("version").isTextual() ? "/" + info.get("version").asText() : "");
        return dev.quaestor.audit.record.AuditRecords.cut(s, MAX);
    }
}
