package dev.quaestor.bench.isolation;

import dev.quaestor.bench.load.LoadDriver;
import dev.quaestor.bench.load.LoadResult;
import dev.quaestor.bench.load.ProcStats;
import dev.quaestor.bench.load.Target;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One kind of request from the abuser, a fixed number in flight (closed loop) for the whole phase, with the server's
 * peak resident memory (VmRSS) sampled every 200 ms while it runs.
 */
final class ClosedFlood implements Abuser {

    /** The request, made once the server is up (it may open sessions first). */
    @FunctionalInterface
    interface Request {
        Target target(Stage stage) throws Exception;
    }

    private final String name;
    private final String description;
    private final int workers;
    private final LongSupplier serverPid;
    private final Request request;
    private Target target;
    private LoadDriver driver;
    private CompletableFuture<LoadResult> result;
    private ScheduledExecutorService sampler;
    private final AtomicLong rssPeakKib = new AtomicLong();

    ClosedFlood(String name, String description, int workers, LongSupplier serverPid, Request request) {
        this.name = name;
        this.description = description;
        this.workers = workers;
        this.serverPid = serverPid;
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
    public void prepare(Stage stage) throws Exception {
        target = request.target(stage);
    }

    @Override
    public void start(Stage stage) {
        long pid = serverPid.getAsLong();
        rssPeakKib.set(0);
        sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> {
            try {
                rssPeakKib.accumulateAndGet(ProcStats.rssKib(pid), Math::max);
            } catch (RuntimeException e) {
                // the server has gone: its last sample stands
            }
        }, 0, 200, TimeUnit.MILLISECONDS);
        driver = new LoadDriver(stage.port(), Math.max(8, workers), pid, Duration.ofSeconds(30), Duration.ofSeconds(30));
        result = CompletableFuture.supplyAsync(() -> {
            try {
                return driver.closed(target, workers, Duration.ofSeconds(stage.phaseSeconds()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Override
    public String stop() throws Exception {
        try {
            LoadResult r;
            try {
                r = result.get();
            } catch (java.util.concurrent.ExecutionException e) {
                return "the abuse did not complete: " + e.getCause();
            }
            return String.format("%,d sent (%.0f/s, %d in flight), %,d served, errors %s; server RSS peak %,d MiB", r.sent(),
                    r.sent() / r.seconds(), workers, r.ok(), r.errorSummary(), rssPeakKib.get() / 1024);
        } finally {
            sampler.shutdownNow();
            driver.close();
        }
    }
}
