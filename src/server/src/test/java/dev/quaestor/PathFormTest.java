package dev.quaestor;

import dev.quaestor.support.ErrorLog;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A path that is not in normal form is refused with 400 before anything else runs, so no filter that tests a path can
 * be walked around by a spelling that routing reads as the same page or endpoint. The requests are written by hand on
 * a socket: an HTTP client may normalise the path before sending it.
 */
@QuarkusTest
class PathFormTest {

    private static final String REFUSAL = "Bad Request: the path is not in normal form (no dot segments, empty segments,"
            + " percent-encoded letters, digits or -._~, or ';')\n";

    @TestHTTPResource("/")
    URI server;

    private final String alice = TestIssuer.tokenFor("alice");

    @Test
    void aPathThatRoutingWouldReadAsAnotherIsRefusedWhateverItCarries() throws IOException {
        for (String path : List.of("/%63onsole/search", "/./mcp", "//mcp", "/%6Dcp", "/q/health/../../mcp", "/%2e%2e/mcp",
                "/mcp;x")) {
            Answer get = send("GET", path, null, null);
            assertEquals(400, get.status, path + ": " + get.raw);
            assertEquals(REFUSAL, get.body, path);
            assertTrue(get.head.toLowerCase().contains("content-type: text/plain"), get.raw);
        }
        // A '%' that does not begin an escape is refused as well (by the router, before any filter).
        assertEquals(400, send("GET", "/mcp%zz", null, null).status);
        // With a valid token too: the endpoint is never reached by another spelling.
        for (String path : List.of("/./mcp", "//mcp", "/%6Dcp", "/mcp;x")) {
            Answer post = send("POST", path, alice, Modern.body(1, "server/discover", null));
            assertEquals(400, post.status, path + ": " + post.raw);
            assertEquals(REFUSAL, post.body, path);
        }
    }

    @Test
    void pathsInNormalFormBehaveAsBefore() throws IOException {
        assertEquals(401, send("POST", "/mcp", null, Modern.body(1, "server/discover", null)).status);
        Answer served = send("POST", "/mcp", alice, Modern.body(2, "server/discover", null));
        assertEquals(200, served.status, served.raw);
        assertEquals(200, send("GET", "/q/health/ready", null, null).status);
        // A trailing slash, and encoded characters that are not unreserved, are already in normal form: not refused here.
        for (String path : List.of("/mcp/", "/q/health%2Fready")) {
            Answer other = send("GET", path, null, null);
            assertNotEquals(400, other.status, path + ": " + other.raw);
        }
    }

    /**
     * A request without a Host the router can read is refused by Vert.x's router before any filter: answered 400 in a
     * line, and not logged as a server error (Quarkus would log one ERROR line per request, from anyone, no token needed).
     */
    @Test
    void aMissingOrMalformedHostIsRefusedInALineAndNotLoggedAsAnError() throws Exception {
        var errors = ErrorLog.errorsWhile(() -> {
            for (String host : java.util.Arrays.asList("localhost:1@evil.example", "a b", "localhost:99999", null)) {
                Answer a = send(host, "POST", "/mcp", alice, Modern.body(1, "server/discover", null));
                assertEquals(400, a.status, host + ": " + a.raw);
                assertEquals("Bad Request: the Host header is missing or is not a host name and port\n", a.body, host);
            }
        });
        assertEquals(List.of(), errors);
        // An empty Host is read (as no name), and refused by the Host guard as any name not allowed.
        assertEquals(403, send("", "POST", "/mcp", alice, Modern.body(1, "server/discover", null)).status);
        assertEquals(200, send("POST", "/mcp", alice, Modern.body(2, "server/discover", null)).status, "a Host as usual is served");
    }

    /**
     * A request line naming an HTTP version other than 1.0 or 1.1 is refused 505 before anything else runs: it is not
     * served, whatever token it carries, and logs no error (Vert.x reads such a version as none).
     */
    @Test
    void anUnknownHttpVersionIsRefusedNotServedAndNotLoggedAsAnError() throws Exception {
        var errors = ErrorLog.errorsWhile(() -> {
            for (String version : List.of("HTTP/1.2", "HTTP/9.9", "HTTP/0.9")) {
                Answer a = send(server.getHost() + ":" + server.getPort(), "POST", "/mcp", alice, Modern.body(1, "server/discover", null),
                        version);
                assertEquals(505, a.status, version + ": " + a.raw);
                assertEquals("HTTP Version Not Supported: HTTP/1.1 or HTTP/1.0 (or HTTP/2)\n", a.body, version);
            }
        });
        assertEquals(List.of(), errors);
    }

    /** Two Host headers are refused 400 (RFC 9112), in either order: neither is taken on the first one's word. */
    @Test
    void twoHostHeadersAreRefusedWhicheverComesFirst() throws IOException {
        String own = server.getHost() + ":" + server.getPort();
        for (String hosts : List.of(own + "\r\nHost: evil.example", "evil.example\r\nHost: " + own)) {
            Answer a = send(hosts, "POST", "/mcp", alice, Modern.body(1, "server/discover", null));
            assertEquals(400, a.status, hosts + ": " + a.raw);
            assertEquals("Bad Request: more than one Host header\n", a.body, hosts);
        }
    }

    /**
     * Two Authorization headers are refused 400 in either order: the token check would take the first, while a gateway
     * in front may have judged the other. Before, the first was served.
     */
    @Test
    void twoAuthorizationHeadersAreRefusedWhicheverComesFirst() throws IOException {
        for (String tokens : List.of(alice + "\r\nAuthorization: Bearer garbage", "garbage\r\nAuthorization: Bearer " + alice)) {
            Answer a = send("POST", "/mcp", tokens, Modern.body(1, "server/discover", null));
            assertEquals(400, a.status, a.raw);
            assertEquals("Bad Request: more than one Authorization header\n", a.body);
        }
    }

    /**
     * A refused message closes its connection: a request sent behind it on the same connection, without asking for the
     * close, is not served. Before, each refusal said {@code Connection: close} and served the next request all the same.
     */
    @Test
    void aRefusedMessageClosesItsConnectionAndWhatFollowsOnItIsNotServed() throws IOException {
        String own = server.getHost() + ":" + server.getPort();
        String served = "POST /mcp HTTP/1.1\r\nHost: " + own + "\r\nAuthorization: Bearer " + alice + "\r\n"
                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: "
                + Modern.VERSION + "\r\nMcp-Method: server/discover\r\nContent-Length: ";
        String discover = Modern.body(1, "server/discover", null);
        String second = served + discover.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + discover;
        for (String extra : List.of("Host: evil.example", "Authorization: Bearer garbage", "Transfer-Encoding: identity")) {
            String first = served + "2\r\n" + extra + "\r\n\r\n{}";
            try (var socket = new Socket(server.getHost(), server.getPort())) {
                socket.setSoTimeout(10_000);
                var out = socket.getOutputStream();
                out.write((first + second).getBytes(StandardCharsets.UTF_8));
                out.flush();
                String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(raw.startsWith("HTTP/1.1 40") || raw.startsWith("HTTP/1.1 501"), extra + ": " + raw);
                assertEquals(1, raw.split("HTTP/1\\.1 ", -1).length - 1, extra + ": one answer, then the close: " + raw);
            }
        }
    }

    private record Answer(int status, String head, String body, String raw) {
    }

    private Answer send(String method, String path, String token, String body) throws IOException {
        return send(server.getHost() + ":" + server.getPort(), method, path, token, body);
    }

    /** One request on its own connection, exactly as written (no Host header if {@code host} is null); the whole answer, up to the server's close. */
    private Answer send(String host, String method, String path, String token, String body) throws IOException {
        return send(host, method, path, token, body, "HTTP/1.1");
    }

    private Answer send(String host, String method, String path, String token, String body, String version) throws IOException {
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(10_000);
            var request = new StringBuilder(method + " " + path + " " + version + "\r\n");
            if (host != null) {
                request.append("Host: ").append(host).append("\r\n");
            }
            request.append("Connection: close\r\n");
            if (token != null) {
                request.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                request.append("Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
                        .append("MCP-Protocol-Version: ").append(Modern.VERSION).append("\r\n")
                        .append("Mcp-Method: server/discover\r\n")
                        .append("Content-Length: ").append(content.length).append("\r\n");
            }
            request.append("\r\n");
            var out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(content);
            out.flush();
            String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int end = raw.indexOf("\r\n\r\n");
            String head = end < 0 ? raw : raw.substring(0, end);
            return new Answer(Integer.parseInt(raw.substring(9, 12)), head, end < 0 ? "" : raw.substring(end + 4), raw);
        }
    }
}
