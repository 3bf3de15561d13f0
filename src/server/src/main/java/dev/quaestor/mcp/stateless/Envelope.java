package dev.quaestor.mcp.stateless;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.mcp.wire.ClientInfo;
import dev.quaestor.mcp.wire.ProtocolRevision;
import java.util.ArrayList;
import java.util.List;

/**
 * What every 2026-07-28 request carries in {@code params._meta} instead of a session: its protocol
 * version and the client's capabilities (both required), and the client's name and version (optional,
 * recorded in the audit trail as {@code name/version}).
 */
record Envelope(String protocolVersion, JsonNode clientCapabilities, String clientInfo) {

    static final String PROTOCOL_VERSION = ProtocolRevision.CLAIM;
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

    /** Why the envelope is malformed, naming every missing or mistyped key; null if it is whole. */
    static String problem(JsonNode params) {
        if (params == null || params.isNull()) {
            return "params._meta is required (" + PROTOCOL_VERSION + ", " + CLIENT_CAPABILITIES + ")";
        }
        if (!params.isObject()) {
            return "params must be an object";
        }
        JsonNode meta = params.get("_meta");
        if (meta == null || !meta.isObject()) {
            return "params._meta is required (" + PROTOCOL_VERSION + ", " + CLIENT_CAPABILITIES + ")";
        }
        List<String> wrong = new ArrayList<>();
        if (!meta.path(PROTOCOL_VERSION).isTextual()) {
            wrong.add(PROTOCOL_VERSION + " (a string)");
        }
        if (!meta.path(CLIENT_CAPABILITIES).isObject()) {
            wrong.add(CLIENT_CAPABILITIES + " (an object)");
        }
        return wrong.isEmpty() ? null : "params._meta lacks " + String.join(" and ", wrong);
    }

    /** The envelope of params for which {@link #problem} found nothing. */
    static Envelope of(JsonNode params) {
        JsonNode meta = params.get("_meta");
        return new Envelope(meta.get(PROTOCOL_VERSION).asText(), meta.get(CLIENT_CAPABILITIES), ClientInfo.of(meta.get(CLIENT_INFO)));
    }
}
