package dev.quaestor.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A POST to /mcp over a raw socket whose headers declare a body of {@code declared} bytes and which sends none of it,
 * as a client probing the body limit would: the server must answer from the headers alone. Its answer is read
 * whole: its head and the body its {@code Content-Length} gives.
 */
public final class OversizedPost {

    /**
     * The answer: its status, its {@code X-Request-Id} (null if none), everything the server sent for it, and whether
     * the server said {@code Connection: close} and then closed the connection.
     */
    public record Answer(int status, String requestId, String raw, boolean closes) {

        /** The answer read whole from {@code raw}; {@code closed} if the server then closed the connection. */
        static Answer of(String raw, boolean closed) {
            int status = raw.startsWith("HTTP/1.1 ") ? Integer.parseInt(raw.substring(9, 12)) : -1;
            String requestId = null;
            for (String line : raw.split("\r\n")) {
                if (line.isEmpty()) {
                    break;
                }
                if (line.toLowerCase(Locale.ROOT).startsWith("x-request-id:")) {
                    requestId = line.substring(line.indexOf(':') + 1).trim();
                }
            }
            return new Answer(status, requestId, raw, raw.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n") && closed);
        }

        public String body() {
            int at = raw.indexOf("\r\n\r\n");
            return at < 0 ? "" : raw.substring(at + 4);
        }
    }

    private OversizedPost() {
    }

    public static Answer send(URI mcp, String token, long declared) throws IOException {
        try (var socket = new Socket(mcp.getHost(), mcp.getPort())) {
            socket.setSoTimeout(20_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + mcp.getHost() + ":" + mcp.getPort() + "\r\n"
                    + "Authorization: Bearer " + token + "\r\nUser-Agent: oversized/1\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Content-Length: " + declared + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String raw = readAnswer(socket.getInputStream());
            return Answer.of(raw, raw.toLowerCase(Locale.ROOT).contains("\r\nconnection: close\r\n")
                    && socket.getInputStream().read() < 0);
        }
    }

    private static String readAnswer(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream();
        int last4 = 0;
        for (int b = in.read(); b >= 0; b = in.read()) {
            head.write(b);
            last4 = (last4 << 8) | b;
            if (last4 == 0x0D0A0D0A) {
                break;
            }
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return text + new String(in.readNBytes(length), StandardCharsets.US_ASCII);
    }
}
