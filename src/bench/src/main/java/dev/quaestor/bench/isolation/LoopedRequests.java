package dev.quaestor.bench.isolation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

/**
 * An abuse made of requests that differ one from the next (forged headers, URIs), sent by {@code workers} threads in
 * closed loop for the whole phase, each request built by {@code request} from the stage and its number.
 */
final class LoopedRequests implements Abuser {

    private final String name;
    private final String description;
    private final int workers;
    private final BiFunction<Stage, Long, HttpRequest.Builder> request;
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final LongAdder failures = new LongAdder();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicLong next = new AtomicLong();
    private ExecutorService pool;
    private long started;

    LoopedRequests(String name, String description, int workers, BiFunction<Stage, Long, HttpRequest.Builder> request) {
        this.name = name;
        this.description = description;
        this.workers = workers;
        this.request = request;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void start(Stage stage) {
        answers.clear();
        failures.reset();
        running.set(true);
        started = System.nanoTime();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        pool = Executors.newFixedThreadPool(workers);
        for (int w = 0; w < workers; w++) {
            pool.submit(() -> {
                while (running.get()) {
                    try {
                        var r = http.send(request.apply(stage, next.getAndIncrement()).timeout(Duration.ofSeconds(30)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        answers.computeIfAbsent(kind(r.statusCode(), r.body()), k -> new LongAdder()).increment();
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        failures.increment();
                    }
                }
            });
        }
    }

    @Override
    public String stop() throws Exception {
        running.set(false);
        pool.shutdown();
        pool.awaitTermination(40, TimeUnit.SECONDS);
        pool.shutdownNow();
        double seconds = (System.nanoTime() - started) / 1e9;
        var byKind = new TreeMap<String, Long>();
        answers.forEach((k, v) -> byKind.put(k, v.sum()));
        long sent = byKind.values().stream().mapToLong(Long::longValue).sum() + failures.sum();
        return String.format("%,d sent at %.0f/s by %d workers: answers %s, no answer %,d", sent, sent / seconds, workers,
                byKind, failures.sum());
    }

    /** "HTTP 200 -32003": the status and the JSON-RPC error code, if the answer has one. */
    private static String kind(int status, String body) {
        int at = body == null ? -1 : body.indexOf("\"code\":");
        if (at < 0) {
            return "HTTP " + status;
        }
        int end = at + 7;
        while (end < body.length() && (body.charAt(end) == '-' || Character.isDigit(body.charAt(end)))) {
            end++;
        }
        return "HTTP " + status + " " + body.substring(at + 7, end);
    }

    /** A JSON-RPC body of a 2026-07-28 (stateless) request. */
    static String modern(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"isolation-bench\",\"version\":\"1\"}}"
                + (params.isEmpty() ? "" : "," + params) + "}}";
    }

    /** POST /mcp of a 2026-07-28 request, without credentials. */
    static HttpRequest.Builder post(String url, String method, String params) {
        return HttpRequest.newBuilder(URI.create(url + "/mcp")).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method).header("User-Agent", "isolation-bench")
                .POST(HttpRequest.BodyPublishers.ofString(modern(method, params)));
    }
}
