package dev.quaestor.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A minimal MCP Streamable HTTP caller on the JDK's HttpClient, for tests that talk to server
 * processes rather than to the in-JVM test server. Sessions live in the database, so a session
 * opened on one replica is valid on all of them.
 */
public final class McpHttp {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One answer: HTTP status, request id, JSON-RPC result or error, Retry-After. */
    public record Answer(int status, String requestId, JsonNode body, String retryAfter) {
        public boolean servedContent() {
            return status == 200 && body != null && body.path("result").path("contents").size() > 0;
        }

        public int errorCode() {
            return body == null ? 0 : body.path("error").path("code").asInt(0);
        }
    }

    private McpHttp() {
    }

    /**
     * A client of its own: HTTP/1.1 connections of its own (the JDK's default would upgrade to one
     * multiplexed HTTP/2 connection), for callers that must not share a connection with another one.
     */
    public static HttpClient newClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    }

    public static String initialize(String baseUrl, String token) throws IOException, InterruptedException {
        return initialize(HTTP, baseUrl, token);
    }

    public static String initialize(HttpClient http, String baseUrl, String token) throws IOException, InterruptedException {
        return initialize(http, baseUrl, token, "2025-06-18");
    }

    /** The answer to a 2025-06-18 {@code initialize}, whatever it is. */
    public static HttpResponse<String> initializeAnswer(String baseUrl, String token) throws IOException, InterruptedException {
        return initializeAnswer(HTTP, baseUrl, token, "2025-06-18");
    }

    /** The answer to an {@code initialize} on {@code version}, whatever it is. */
    public static HttpResponse<String> initializeAnswer(HttpClient http, String baseUrl, String token, String version)
            throws IOException, InterruptedException {
        return http.send(request(baseUrl, token, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"" + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}"),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A session on {@code version} (2025-03-26 for JSON-RPC batches). */
    public static String initialize(HttpClient http, String baseUrl, String token, String version)
            throws IOException, InterruptedException {
        var r = initializeAnswer(http, baseUrl, token, version);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("initialize at " + baseUrl + " said " + r.statusCode() + ": " + r.body());
        }
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        http.send(request(baseUrl, token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                HttpResponse.BodyHandlers.discarding());
        return session;
    }

    public static Answer read(String baseUrl, String token, String session, String uri) throws IOException, InterruptedException {
        return read(HTTP, baseUrl, token, session, uri);
    }

    public static Answer read(HttpClient http, String baseUrl, String token, String session, String uri)
            throws IOException, InterruptedException {
        var r = http.send(request(baseUrl, token, session,
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}"),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.headers().firstValue("X-Request-Id").orElse(null), parse(r.body()),
                r.headers().firstValue("Retry-After").orElse(null));
    }

    private static JsonNode parse(String body) throws IOException {
        if (body == null || body.isBlank()) {
            return null;
        }
        String json = body.strip();
        if (json.startsWith("event:") || json.startsWith("data:")) {
            // One-event SSE stream: take the data line.
            json = json.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).findFirst().orElse("");
        }
        return json.isEmpty() ? null : JSON.readTree(json);
    }

    private static HttpRequest request(String baseUrl, String token, String session, String body) {
        var b = HttpRequest.newBuilder(URI.create(baseUrl + "/mcp")).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-06-18")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }
}
