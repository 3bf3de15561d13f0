package dev.quaestor.mcp.transport;

import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Methods other than POST, GET and DELETE on {@code /mcp} are answered 405, naming the three, before anything else:
 * a HEAD, which the REST layer would hand to the GET handler, looks up no session and takes no worker.
 */
@QuarkusTest
class McpMethodsTest {

    @TestHTTPResource("/mcp")
    URI mcp;

    @Test
    void otherMethodsAre405BeforeAnyWork() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        var http = HttpClient.newHttpClient();
        for (String method : new String[] {"HEAD", "OPTIONS", "PUT", "PATCH"}) {
            var request = HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + token)
                    .header("Mcp-Session-Id", "no-such-session-" + method).header("Accept", "text/event-stream")
                    .method(method, HttpRequest.BodyPublishers.noBody()).build();
            var response = http.send(request, HttpResponse.BodyHandlers.discarding());
            assertEquals(405, response.statusCode(), method);
            assertEquals("GET, POST, DELETE", response.headers().firstValue("Allow").orElse(null), method);
        }
        // The three are still answered as before: an unknown session's GET is 404.
        var get = HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + token)
                .header("Mcp-Session-Id", "no-such-session").header("Accept", "text/event-stream").GET().build();
        assertEquals(404, http.send(get, HttpResponse.BodyHandlers.discarding()).statusCode());
    }
}
