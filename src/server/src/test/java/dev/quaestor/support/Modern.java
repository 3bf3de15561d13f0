package dev.quaestor.support;

import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import static io.restassured.RestAssured.given;

/**
 * Raw MCP 2026-07-28 requests with REST Assured: every request carries its {@code _meta} envelope and
 * the standard headers ({@code MCP-Protocol-Version}, {@code Mcp-Method}, and for {@code resources/read}
 * {@code Mcp-Name}), as a well-behaved client sends them; tests then take one thing away or change it.
 */
public final class Modern {

    public static final String VERSION = "2026-07-28";
    public static final String CLIENT = "{\"name\":\"rest-assured\",\"version\":\"9.9\"}";

    private Modern() {
    }

    /** The {@code _meta} envelope: protocol version, client capabilities, client info. */
    public static String meta(String version) {
        return "{\"io.modelcontextprotocol/protocolVersion\":\"" + version + "\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{},\"io.modelcontextprotocol/clientInfo\":" + CLIENT + "}";
    }

    /** A request body; {@code params} are the members besides {@code _meta} (may be empty). */
    public static String body(Object id, String method, String params) {
        String idJson = id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson + ",\"method\":\"" + method + "\",\"params\":{\"_meta\":" + meta(VERSION)
                + (params == null || params.isEmpty() ? "" : "," + params) + "}}";
    }

    /** Authorization, Content-Type and Accept only. */
    public static RequestSpecification bare(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json")
                .accept("application/json, text/event-stream");
    }

    /** With MCP-Protocol-Version and Mcp-Method. */
    public static RequestSpecification as(String token, String method) {
        return bare(token).header("MCP-Protocol-Version", VERSION).header("Mcp-Method", method);
    }

    public static ValidatableResponse call(String token, Object id, String method, String params) {
        return as(token, method).body(body(id, method, params)).post("/mcp").then();
    }

    public static ValidatableResponse read(String token, Object id, String uri) {
        return as(token, "resources/read").header("Mcp-Name", uri)
                .body(body(id, "resources/read", "\"uri\":\"" + uri + "\"")).post("/mcp").then();
    }
}
