package dev.quaestor.bench.isolation;

import dev.quaestor.bench.load.Target;
import dev.quaestor.support.McpHttp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;

/** The abusers of the benchmark, each at least as large as the isolation target names it, in the order they run. */
final class Abusers {

    /** A JSON-RPC body of a 2026-07-28 (stateless) request. */
    private static String modern(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"isolation-bench\",\"version\":\"1\"}}," + params + "}}";
    }

    private static String modernHeaders(Stage s, String method, int length) {
        return s.head("POST", "/mcp", s.abuserToken()) + "Content-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: " + method + "\r\n"
                + "Content-Length: " + length + "\r\n";
    }

    private Abusers() {
    }

    static List<Abuser> all(IsolationContent content, java.util.function.LongSupplier serverPid, IsolationOptions o) {
        // The initialize flood comes last: the sessions it leaves open hold the abusers' subject at its session cap,
        // which would keep the abusers after it (GET streams, large batches) from opening the sessions they need.
        return List.of(stalledExports(o.exports), new ConcurrentVerifies(o.verifies), slowBodies(o.slowBodies),
                new GetStreams(o.getStreams), listens(content, o.listens),
                slowLargeReads(content, o.largeReads, o.trickleBytesPerSecond), forwardedForgeries(o.forgeryWorkers),
                decoyProbes(o.probeWorkers), largeListings(content, o.listings, serverPid),
                bigBodies(o.bigBodies, serverPid), largeBatches(content, o.batches, serverPid),
                new InitializeFlood(serverPid, o.initializeCalls));
    }

    /**
     * Refused tokens from forged addresses: {@code X-Forwarded-For} names one of 250 addresses in turn (behind a forged
     * left-most hop) in front of the loopback, which the server trusts as its ingress, so the requests count against
     * 250 budgets of their own and the total bound is what holds; a third carry no token at all.
     */
    static Abuser forwardedForgeries(int workers) {
        return new LoopedRequests("forged forwarding headers", workers + " workers in closed loop: POST /mcp with a refused or"
                + " no token, X-Forwarded-For one of 250 addresses in turn", workers, (s, i) -> {
                    var r = LoopedRequests.post(s.url(), "server/discover", "").header("X-Forwarded-For",
                            "10.20." + (i / 250 % 250) + "." + (i % 250) + ", 198.51." + (i / 62_500 % 250) + "." + (i % 250 + 1));
                    return i % 3 == 0 ? r : r.header("Authorization", "Bearer forged-" + i);
                });
    }

    /**
     * One authenticated subject's denied reads, each window of its refusals opened by 32 decoys and followed by probes
     * of distinct URIs: every probe must still be named in a summary, which now closes when its 32 URIs are full.
     */
    static Abuser decoyProbes(int workers) {
        return new LoopedRequests("decoy-merged probes", workers + " workers in closed loop: denied resources/read, 32 decoy"
                + " URIs then 8 probes of new URIs, over and over", workers, (s, i) -> {
                    long round = i / 40;
                    int k = (int) (i % 40);
                    String uri = k < 32 ? "file:///outside/decoys/decoy-" + k + ".md" : "file:///outside/secret/probe-" + round + "-" + k + ".md";
                    return LoopedRequests.post(s.url(), "resources/read", "\"uri\":\"" + uri + "\"").header("Mcp-Name", uri)
                            .header("Authorization", "Bearer " + s.abuserToken());
                });
    }

    /** The headers of a 2026-07-28 request from the abuser, for the load driver. */
    private static MultiMap modernHeaders(Stage s, String method) {
        return MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + s.abuserToken())
                .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                .add("MCP-Protocol-Version", "2026-07-28").add("Mcp-Method", method).add("User-Agent", "isolation-bench");
    }

    /** First pages of resources/list, the archive (20,000 files the abuser may see none of) listed first. */
    static Abuser largeListings(IsolationContent content, int count, LongSupplier serverPid) {
        return new ClosedFlood(count + " large listings", count + " resources/list (2026-07-28) in flight, each the first page"
                + " of a " + content.archiveFiles() + "-file mount the lister may see none of", count, serverPid,
                s -> new Target("large listing", HttpMethod.POST, "/mcp", List.of(modernHeaders(s, "resources/list")),
                        Buffer.buffer(modern("resources/list", "\"cursor\":null")), "\"resources\"", 0));
    }

    /** resources/list with a body padded to 1,000,000 bytes (the body limit is 1 MiB). */
    static Abuser bigBodies(int count, LongSupplier serverPid) {
        return new ClosedFlood(count + " big bodies", count + " POST /mcp of 1,000,000-byte bodies in flight (resources/list,"
                + " padded)", count, serverPid, s -> {
                    String head = modern("resources/list", "\"pad\":\"");
                    String tail = "\"}}";
                    String body = head.substring(0, head.length() - 2) + "x".repeat(1_000_000 - head.length() - tail.length() + 2)
                            + tail;
                    return new Target("big body", HttpMethod.POST, "/mcp", List.of(modernHeaders(s, "resources/list")),
                            Buffer.buffer(body), "\"resources\"", 0);
                });
    }

    /** 2025-03-26 batches of 50 reads of the 1,000,000-byte file, each on a session of its own. */
    static Abuser largeBatches(IsolationContent content, int count, LongSupplier serverPid) {
        return new ClosedFlood(count + " large batches", count + " 2025-03-26 batches in flight, each of 50 reads of a"
                + " 1,000,000-byte file", count, serverPid, s -> {
                    var http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
                    var sessions = new java.util.ArrayList<MultiMap>();
                    for (int i = 0; i < count; i++) {
                        sessions.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + s.abuserToken())
                                .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                                .add("User-Agent", "isolation-bench")
                                .add("Mcp-Session-Id", McpHttp.initialize(http, s.url(), s.abuserToken(), "2025-03-26")));
                    }
                    var reads = new java.util.ArrayList<String>();
                    for (int i = 1; i <= 50; i++) {
                        reads.add("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"resources/read\",\"params\":{\"uri\":\""
                                + content.millionUri() + "\"}}");
                    }
                    return new Target("large batch", HttpMethod.POST, "/mcp", sessions,
                            Buffer.buffer("[" + String.join(",", reads) + "]"), "\"result\"", 0);
                });
    }

    /** Audit exports whose client never reads: a 4 KiB receive window, nothing drained. */
    static Abuser stalledExports(int count) {
        return new HeldAbuser(count + " stalled exports", count + " GET /audit/export (whole log, JSON lines) with a 4 KiB "
                + "receive window, never read", s -> new HeldSockets.Spec(count, s.openRate(count),
                        i -> (s.head("GET", "/audit/export", s.auditorToken()) + "Accept: application/jsonl\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII),
                        -1, HeldSockets.Reading.NOTHING, 4096, 0, null));
    }

    /** POSTs to /mcp that send their headers and 10 bytes of a 1,000-byte body, then nothing. */
    static Abuser slowBodies(int count) {
        return new HeldAbuser(count + " slow bodies", count + " POST /mcp announcing 1,000 bytes, sending headers and 10 of "
                + "them, then nothing", s -> {
                    String body = modern("resources/list", "\"pad\":\"" + "x".repeat(1000) + "\"").substring(0, 1000);
                    byte[] request = (modernHeaders(s, "resources/list", 1000) + "\r\n" + body).getBytes(StandardCharsets.US_ASCII);
                    int headers = request.length - 1000;
                    return new HeldSockets.Spec(count, s.openRate(count), i -> request, headers + 10, HeldSockets.Reading.DRAIN, 0, 0, null);
                });
    }

    /** 2026-07-28 subscriptions/listen naming every URI of the listen directory; the streams drained and held. */
    static Abuser listens(IsolationContent content, int count) {
        return new HeldAbuser(count + " listens", count + " subscriptions/listen (2026-07-28) naming " + content.listenUris().size()
                + " URIs each, held and drained", s -> {
                    String body = modern("subscriptions/listen", "\"notifications\":{\"resourceSubscriptions\":[\""
                            + String.join("\",\"", content.listenUris()) + "\"]}");
                    byte[] request = (modernHeaders(s, "subscriptions/listen", body.length()) + "\r\n" + body)
                            .getBytes(StandardCharsets.US_ASCII);
                    return new HeldSockets.Spec(count, s.openRate(count), i -> request, -1, HeldSockets.Reading.DRAIN, 0, 0,
                            "notifications/subscriptions/acknowledged");
                });
    }

    /** resources/read (2026-07-28) of the large file, read at a trickle through a 4 KiB receive window. */
    static Abuser slowLargeReads(IsolationContent content, int count, int bytesPerSecond) {
        return new HeldAbuser(count + " slow large reads", count + " resources/read of a " + content.largeMib() + " MiB file, "
                + "each read at " + bytesPerSecond / 1024 + " KiB/s through a 4 KiB receive window", s -> {
                    String body = modern("resources/read", "\"uri\":\"" + content.largeUri() + "\"");
                    byte[] request = (modernHeaders(s, "resources/read", body.length()) + "Mcp-Name: " + content.largeUri() + "\r\n\r\n"
                            + body).getBytes(StandardCharsets.US_ASCII);
                    return new HeldSockets.Spec(count, s.openRate(count), i -> request, -1, HeldSockets.Reading.TRICKLE, 4096, bytesPerSecond,
                            null);
                });
    }
}
