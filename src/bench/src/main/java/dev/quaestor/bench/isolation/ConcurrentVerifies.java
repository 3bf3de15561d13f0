package dev.quaestor.bench.isolation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An auditor's honest {@code GET /audit/verify}, {@code concurrency} at once for the whole phase: each caller asks
 * again as soon as it has its answer. Every answer's status is counted, and the verified record count of the
 * first successful one is kept (it shows that the whole signed log was checked).
 */
final class ConcurrentVerifies implements Abuser {

    private final int concurrency;
    private final List<Thread> callers = new ArrayList<>();
    private final Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
    private final AtomicLong totalMillis = new AtomicLong();
    private volatile boolean stopped;
    private volatile String firstBody;

    ConcurrentVerifies(int concurrency) {
        this.concurrency = concurrency;
    }

    @Override
    public String name() {
        return concurrency + " verifies";
    }

    @Override
    public String description() {
        return concurrency + " concurrent GET /audit/verify, each asked again when answered";
    }

    @Override
    public void start(Stage stage) {
        for (int i = 0; i < concurrency; i++) {
            var t = new Thread(() -> loop(stage), "verify-" + i);
            t.setDaemon(true);
            callers.add(t);
            t.start();
        }
    }

    private void loop(Stage stage) {
        // A client (so a connection) of its own per caller, HTTP/1.1 as an auditor's script would use.
        var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        var request = HttpRequest.newBuilder(URI.create(stage.url() + "/audit/verify")).timeout(Duration.ofMinutes(10))
                .header("Authorization", "Bearer " + stage.auditorToken()).header("User-Agent", "isolation-bench").build();
        while (!stopped) {
            long start = System.nanoTime();
            try {
                var res = http.send(request, HttpResponse.BodyHandlers.ofString());
                answers.computeIfAbsent("HTTP " + res.statusCode(), k -> new AtomicLong()).incrementAndGet();
                totalMillis.addAndGet((System.nanoTime() - start) / 1_000_000);
                if (res.statusCode() == 200 && firstBody == null) {
                    firstBody = res.body();
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!stopped) {
                    answers.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
                }
            }
        }
    }

    @Override
    public String stop() throws InterruptedException {
        stopped = true;
        for (Thread t : callers) {
            t.interrupt();
        }
        for (Thread t : callers) {
            t.join(5000);
        }
        var counts = new TreeMap<String, Long>();
        answers.forEach((k, v) -> counts.put(k, v.get()));
        long done = counts.values().stream().mapToLong(Long::longValue).sum();
        String body = firstBody == null ? "" : firstBody;
        return String.format("%d in flight from the start; answered within the phase: %s%s%s", concurrency,
                counts.isEmpty() ? "none" : counts, done == 0 ? "" : String.format(", %.1f s each on average", totalMillis.get() / 1000.0 / done),
                body.isEmpty() ? "" : "; first answer: verified=" + field(body, "\"verified\":") + ", records of the logs " + records(body));
    }

    private static String field(String json, String key) {
        int at = json.indexOf(key);
        if (at < 0) {
            return "?";
        }
        int end = at + key.length();
        while (end < json.length() && ",}".indexOf(json.charAt(end)) < 0) {
            end++;
        }
        return json.substring(at + key.length(), end);
    }

    private static String records(String json) {
        var out = new ArrayList<String>();
        for (int at = json.indexOf("\"records\":"); at >= 0; at = json.indexOf("\"records\":", at + 1)) {
            out.add(field(json.substring(at), "\"records\":"));
        }
        return out.toString();
    }
}
