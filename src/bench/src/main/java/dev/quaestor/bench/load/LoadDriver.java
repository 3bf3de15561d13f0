package dev.quaestor.bench.load;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The load generator: asynchronous HTTP/1.1 keep-alive requests from one Vert.x event loop (so
 * its own CPU stays small and all bookkeeping is single-threaded). Closed loop: {@code workers}
 * requests in flight, each sent as soon as the previous one answered. Open loop: requests started
 * at a fixed rate by their intended start time, whatever the server does, and timed from that
 * intended time (no coordinated omission).
 */
public final class LoadDriver implements AutoCloseable {

    private final Vertx vertx;
    private final HttpClient client;
    private final Context context;
    private final long serverPid;
    private final long idleTimeoutMs;
    private final long poolWaitMs;

    public LoadDriver(int port, int connections, long serverPid, Duration timeout) {
        this(port, connections, serverPid, timeout, null);
    }

    /**
     * As above; with {@code poolWait}, a request that has no connection that long after it was started fails with a
     * client timeout (null: it waits for one as long as it takes).
     */
    public LoadDriver(int port, int connections, long serverPid, Duration timeout, Duration poolWait) {
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1)
                .setBlockedThreadCheckInterval(60_000));
        this.client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port)
                .setKeepAlive(true).setPipelining(false).setTcpNoDelay(true).setConnectTimeout(5_000),
                new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1));
        this.context = vertx.getOrCreateContext();
        this.serverPid = serverPid;
        this.idleTimeoutMs = timeout.toMillis();
        this.poolWaitMs = poolWait == null ? 0 : poolWait.toMillis();
    }

    /** Book-keeping of one phase; touched only on the driver's event loop. */
    private final class Run {
        final Target target;
        final Histogram ok = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
        final Histogram all = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
        // How late each request got onto a connection after its intended start (open loop): a starved generator,
        // or one waiting for a free connection, shows here, not as the server's latency alone.
        final Histogram lag = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
        // Each response's time from the moment its request had a connection: what the server (and loopback) took.
        final Histogram fromWire = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
        final Map<String, Long> errors = new HashMap<>();
        long sent;
        long okCount;
        long inFlight;

        Run(Target target) {
            this.target = target;
        }

        void send(long i, long startNanos, Runnable then) {
            sent++;
            inFlight++;
            long[] onWire = {0};
            var options = new RequestOptions().setMethod(target.method()).setURI(target.path())
                    .setHeaders(target.headersFor(i)).setIdleTimeout(idleTimeoutMs);
            if (poolWaitMs > 0) {
                options.setConnectTimeout(poolWaitMs);
            }
            client.request(options)
                    .compose(req -> {
                        onWire[0] = System.nanoTime();
                        lag.recordValue(Math.min(Math.max(0, (onWire[0] - startNanos) / 1000), lag.getHighestTrackableValue()));
                        return target.body() == null ? req.send() : req.send(target.body());
                    })
                    .compose(res -> res.body().map(b -> new Answer(res, b)))
                    .onComplete(ar -> {
                        long end = System.nanoTime();
                        if (onWire[0] != 0) {
                            fromWire.recordValue(Math.min(Math.max(1, (end - onWire[0]) / 1000), fromWire.getHighestTrackableValue()));
                        }
                        long micros = Math.max(1, (end - startNanos) / 1000);
                        all.recordValue(Math.min(micros, all.getHighestTrackableValue()));
                        if (ar.succeeded() && target.ok(ar.result().res.statusCode(), ar.result().body)) {
                            okCount++;
                            ok.recordValue(Math.min(micros, ok.getHighestTrackableValue()));
                        } else {
                            String kind = ar.succeeded() ? Target.errorKind(ar.result().res.statusCode(), ar.result().body)
                                    : kindOf(ar.cause());
                            errors.merge(kind, 1L, Long::sum);
                        }
                        inFlight--;
                        then.run();
                    });
        }

        LoadResult result(String mode, double seconds, ProcStats.Window cpu) {
            return new LoadResult(target.name(), mode, seconds, sent, okCount, Map.copyOf(errors), ok, all, lag, fromWire, cpu.close(),
                    ProcStats.rssKib(serverPid), cpu.threadCores());
        }
    }

    private record Answer(HttpClientResponse res, Buffer body) {
    }

    private static String kindOf(Throwable t) {
        String name = t.getClass().getSimpleName();
        String msg = t.getMessage() == null ? "" : t.getMessage();
        if (msg.contains("timeout") || name.contains("Timeout")) {
            return "client timeout";
        }
        return "I/O " + name;
    }

    /** {@code workers} requests in flight for {@code duration}. */
    public LoadResult closed(Target target, int workers, Duration duration) throws Exception {
        var done = new CompletableFuture<LoadResult>();
        context.runOnContext(v -> {
            var run = new Run(target);
            var cpu = ProcStats.Window.open(serverPid);
            long start = System.nanoTime();
            long deadline = start + duration.toNanos();
            long[] next = {0};
            Runnable[] loop = new Runnable[1];
            loop[0] = () -> {
                long now = System.nanoTime();
                if (now < deadline) {
                    run.send(next[0]++, now, loop[0]);
                } else if (run.inFlight == 0) {
                    done.complete(run.result("closed loop, " + workers + " in flight", (now - start) / 1e9, cpu));
                }
            };
            for (int w = 0; w < workers; w++) {
                run.send(next[0]++, System.nanoTime(), loop[0]);
            }
        });
        return done.get(duration.toMillis() + idleTimeoutMs + 60_000, TimeUnit.MILLISECONDS);
    }

    /** {@code rate} requests per second started on schedule for {@code duration}, then waits for the stragglers. */
    public LoadResult open(Target target, double rate, Duration duration) throws Exception {
        var done = new CompletableFuture<LoadResult>();
        long total = (long) (rate * duration.toNanos() / 1e9);
        context.runOnContext(v -> {
            var run = new Run(target);
            var cpu = ProcStats.Window.open(serverPid);
            long start = System.nanoTime();
            double interval = 1e9 / rate;
            long[] next = {0};
            Runnable finished = () -> {
                if (next[0] >= total && run.inFlight == 0 && !done.isDone()) {
                    done.complete(run.result("open loop, " + Math.round(rate) + "/s", duration.toNanos() / 1e9, cpu));
                }
            };
            vertx.setPeriodic(1, timer -> {
                long now = System.nanoTime();
                while (next[0] < total && start + (long) (next[0] * interval) <= now) {
                    long intended = start + (long) (next[0] * interval);
                    run.send(next[0]++, intended, finished);
                }
                if (next[0] >= total) {
                    vertx.cancelTimer(timer);
                    finished.run();
                }
            });
        });
        // Past saturation the generator's requests queue for its connections; on a slow machine, draining that queue
        // after the last one was scheduled can take as long again as the phase (a 300 s soak at 9,260/s timed out
        // after 60 s of draining), so the wait allows it.
        return done.get(duration.toMillis() + idleTimeoutMs + Math.max(60_000, duration.toMillis()), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws Exception {
        client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
