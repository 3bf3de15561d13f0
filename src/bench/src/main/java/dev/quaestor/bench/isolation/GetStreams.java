package dev.quaestor.bench.isolation;

import dev.quaestor.support.McpHttp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * 2025-03-26 server-to-client streams: {@code count} sessions of one subject are asked for before the phase (the
 * server may refuse some: a cap on sessions per subject), and during it {@code count} {@code GET /mcp} streams on
 * those it opened, in turn, opened as {@link Stage#openRate} says, drained and held.
 */
final class GetStreams implements Abuser {

    private final int count;
    private final List<String> sessions = Collections.synchronizedList(new ArrayList<>());
    private final java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.Map<Integer, Integer> refusedByStatus = new java.util.concurrent.ConcurrentHashMap<>();
    private HeldAbuser held;

    GetStreams(int count) {
        this.count = count;
    }

    @Override
    public String name() {
        return count + " GET streams";
    }

    @Override
    public String description() {
        return count + " sessions (2025-03-26) opened beforehand, then a GET /mcp event stream on each, held and drained";
    }

    /** Where the sessions were opened, and as whom: to end them after the phase. */
    private String url;
    private String token;

    @Override
    public void prepare(Stage stage) throws Exception {
        url = stage.url();
        token = stage.abuserToken();
        var pool = Executors.newFixedThreadPool(8);
        try {
            var done = new ArrayList<Future<?>>();
            for (int t = 0; t < 8; t++) {
                done.add(pool.submit(() -> {
                    var http = McpHttp.newClient();
                    while (asked.getAndIncrement() < count) {
                        var r = McpHttp.initializeAnswer(http, stage.url(), stage.abuserToken(), "2025-03-26");
                        if (r.statusCode() == 200) {
                            sessions.add(r.headers().firstValue("Mcp-Session-Id").orElseThrow());
                        } else {
                            refusedByStatus.merge(r.statusCode(), 1, Integer::sum);
                        }
                    }
                    return null;
                }));
            }
            for (var f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public void start(Stage stage) throws Exception {
        if (sessions.isEmpty()) {
            return; // every session was refused (a cap on sessions per subject): there is nothing to stream on
        }
        held = new HeldAbuser(name(), description(), s -> new HeldSockets.Spec(count, s.openRate(count),
                i -> (s.head("GET", "/mcp", s.abuserToken()) + "Accept: text/event-stream\r\nMcp-Session-Id: "
                        + sessions.get(i % sessions.size())
                        + "\r\nMCP-Protocol-Version: 2025-03-26\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
                -1, HeldSockets.Reading.DRAIN, 0, 0, "text/event-stream"));
        held.start(stage);
    }

    @Override
    public String stop() throws Exception {
        String report = (held == null ? "no stream opened" : held.stop()) + "; sessions asked for beforehand: " + count
                + ", opened " + sessions.size() + (refusedByStatus.isEmpty() ? "" : ", refused " + refusedByStatus);
        // The abuse is over: its sessions are ended, as a client leaving would, so that they do not hold the abusers'
        // subject at its session cap through the phases after this one.
        var http = McpHttp.newClient();
        int ended = 0;
        for (String session : sessions) {
            var r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/mcp")).DELETE()
                    .header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", "2025-03-26").build(), java.net.http.HttpResponse.BodyHandlers.discarding());
            ended += r.statusCode() < 300 ? 1 : 0;
        }
        return report + "; " + ended + " ended after the phase";
    }
}
