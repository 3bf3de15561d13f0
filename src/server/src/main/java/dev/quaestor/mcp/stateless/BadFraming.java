package dev.quaestor.mcp.stateless;

import dev.quaestor.mcp.wire.WireErrors;
import java.util.Map;

/**
 * Why a 2026-07-28 request is refused before the request path serves it (its envelope or headers): the outcome
 * recorded, the JSON-RPC code and message sent, the detail recorded, and the error's {@code data}.
 */
record BadFraming(String outcome, int code, String message, String detail, Map<String, Object> data) {

    static BadFraming headerMismatch(String why) {
        return new BadFraming("header-mismatch", WireErrors.HEADER_MISMATCH, "Header mismatch: " + why, why, Map.of());
    }
}
