package dev.quaestor.bench.load;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * One kind of request the driver sends: the audited MCP read (POST /mcp with a session) or the
 * baseline (GET /baseline/...). Request {@code i} uses the headers of session {@code i % sessions}.
 *
 * @param okMarker bytes a successful response body contains (the read's {@code "contents"}, or
 *                 nothing for the baseline, whose success is a 200 of the expected length)
 */
public record Target(String name, HttpMethod method, String path, List<MultiMap> headers, Buffer body, String okMarker,
        int okLength) {

    MultiMap headersFor(long i) {
        return headers.get((int) (i % headers.size()));
    }

    boolean ok(int status, Buffer response) {
        if (status != 200) {
            return false;
        }
        if (okMarker == null) {
            return response.length() == okLength;
        }
        return response.toString().contains(okMarker);
    }

    /** "HTTP 429 -32004" for an error answer: the status and the JSON-RPC error code if there is one. */
    static String errorKind(int status, Buffer response) {
        String s = response == null ? "" : response.toString();
        int at = s.indexOf("\"code\":");
        if (at < 0) {
            return "HTTP " + status;
        }
        int end = at + 7;
        while (end < s.length() && (s.charAt(end) == '-' || Character.isDigit(s.charAt(end)))) {
            end++;
        }
        return "HTTP " + status + " " + s.substring(at + 7, end);
    }
}
