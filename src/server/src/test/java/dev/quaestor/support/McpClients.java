package dev.quaestor.support;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import java.net.URL;
import java.net.http.HttpRequest;
import java.time.Duration;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The official MCP Java SDK client, pointed at the server under test with a bearer token. */
public final class McpClients {

    private McpClients() {
    }

    public static McpSyncClient connect(URL base, String token) {
        McpSyncClient client = McpClient.sync(transport(base, token)).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }

    /** The SDK's Streamable HTTP transport for the server under test (it opens the GET stream after initialize). */
    public static HttpClientStreamableHttpTransport transport(URL base, String token) {
        return HttpClientStreamableHttpTransport.builder(base.toString().replaceAll("/$", ""))
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                .openConnectionOnStartup(false)
                .build();
    }

    /** Runs the call, expects a JSON-RPC error, and returns it. */
    public static McpError expectError(Executable call) {
        return assertThrows(McpError.class, call);
    }

    /**
     * As {@link #connect}, for reading large resources: the SDK's default caps (16 MiB per response,
     * Jackson's 20M characters per string) are raised to {@code maxResponseBytes}.
     */
    public static McpSyncClient connectForLargeContent(URL base, String token, int maxResponseBytes) {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        mapper.getFactory().setStreamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                .maxStringLength(maxResponseBytes).build());
        var transport = HttpClientStreamableHttpTransport.builder(base.toString().replaceAll("/$", ""))
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                .openConnectionOnStartup(false)
                .maxResponseSize(maxResponseBytes)
                .jsonMapper(new io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper(mapper))
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }
}
