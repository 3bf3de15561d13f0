package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/** JSON-RPC 2.0 envelopes. */
public final class JsonRpc {

    private JsonRpc() {
    }

    /** A request ({@code id} present) or notification ({@code id} absent) from the client. */
    record Message(JsonNode id, String method, JsonNode params) {
        boolean isNotification() {
            return id == null;
        }
    }

    public record Result(String jsonrpc, JsonNode id, Object result) {
        public Result(JsonNode id, Object result) {
            this("2.0", id, result);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ErrorObject(int code, String message, Object data) {
    }

    record Error(String jsonrpc, JsonNode id, ErrorObject error) {
        Error(JsonNode id, ErrorObject error) {
            this("2.0", id, error);
        }
    }
}
