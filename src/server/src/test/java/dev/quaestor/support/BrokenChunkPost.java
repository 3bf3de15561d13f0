package dev.quaestor.support;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A chunked POST to /mcp over a raw socket whose framing breaks after its first chunk (a chunk size that is no hex
 * number), sent after its headers as a client streaming its body sends it: a break in the packet that carries the
 * headers may come before the body is listened for. The answer is read to the connection's end.
 */
public final class BrokenChunkPost {

    private BrokenChunkPost() {
    }

    public static OversizedPost.Answer send(URI mcp, String token) throws IOException, InterruptedException {
        try (var socket = new Socket(mcp.getHost(), mcp.getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + mcp.getHost() + ":" + mcp.getPort() + "\r\n"
                    + "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    + "Mcp-Method: server/discover\r\nTransfer-Encoding: chunked\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Thread.sleep(300);
            socket.getOutputStream().write("5\r\n{\"jso\r\nzz\r\n".getBytes(StandardCharsets.US_ASCII));
            String raw = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return OversizedPost.Answer.of(raw, true);
        }
    }
}
