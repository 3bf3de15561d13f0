package dev.quaestor.support;

import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import static io.restassured.RestAssured.given;

/** Raw JSON-RPC over HTTP with REST Assured, for transport rules a well-behaved SDK never breaks. */
public final class Rpc {

    private Rpc() {
    }

    public static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json")
                .accept("application/json, text/event-stream");
    }

    public static String initialize(String token, String version) {
        return as(token).body(init(version)).post("/mcp").then().statusCode(200).extract().header("Mcp-Session-Id");
    }

    public static String init(String version) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"rest-assured\",\"version\":\"1\"}}}";
    }

    public static ValidatableResponse call(String token, String session, String body) {
        return as(token).header("Mcp-Session-Id", session).body(body).post("/mcp").then();
    }

    /** A {@code resources/read} of {@code uri}. */
    public static ValidatableResponse read(String token, String session, String uri) {
        return call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}");
    }
}
