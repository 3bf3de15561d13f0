package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quaestor.pipeline.CacheHint;

/**
 * The fields 2026-07-28 adds to every result: {@code resultType} ({@code "complete"}: this server never
 * asks the client for input), the server's identity in {@code _meta}, and on cacheable results
 * {@code ttlMs} and {@code cacheScope}.
 */
public final class StatelessResults {

    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    public static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

    private StatelessResults() {
    }

    /** A result that is not cacheable. */
    public static ObjectNode complete(ObjectMapper json, Object result) {
        return build(json, result, null);
    }

    /** A result with the caching hints of the request path. */
    public static ObjectNode cacheable(ObjectMapper json, Object result, CacheHint cache) {
        if (cache == null) {
            throw new IllegalArgumentException("a cacheable result needs its cache hint");
        }
        return build(json, result, cache);
    }

    private static ObjectNode build(ObjectMapper json, Object result, CacheHint cache) {
        ObjectNode node = json.createObjectNode();
        node.put("resultType", "complete");
        JsonNode fields = json.valueToTree(result);
        if (fields instanceof ObjectNode o) {
            node.setAll(o);
        }
        if (cache != null) {
            node.put("ttlMs", cache.ttlMs());
            node.put("cacheScope", cache.scope());
        }
        node.set("_meta", meta(json));
        return node;
    }

    /** {@code _meta} with the server's identity. */
    public static ObjectNode meta(ObjectMapper json) {
        ObjectNode meta = json.createObjectNode();
        meta.set(SERVER_INFO, json.valueToTree(ServerInfo.IMPLEMENTATION));
        return meta;
    }

    /**
     * The members a streamed read's result holds before {@code contents}, each followed by a comma:
     * the same fields as {@link #cacheable}, written ahead of content that is not held in memory.
     */
    public static String streamedReadFields(ObjectMapper json, CacheHint cache) {
        try {
            return "\"resultType\":\"complete\",\"ttlMs\":" + cache.ttlMs() + ",\"cacheScope\":"
                    + json.writeValueAsString(cache.scope()) + ",\"_meta\":" + json.writeValueAsString(meta(json)) + ",";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
