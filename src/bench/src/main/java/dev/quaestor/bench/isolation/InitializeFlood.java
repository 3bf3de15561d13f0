package dev.quaestor.bench.isolation;

import dev.quaestor.bench.load.LoadDriver;
import dev.quaestor.bench.load.LoadResult;
import dev.quaestor.bench.load.Target;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * {@code initialize} calls from one subject at the legitimate client's rate, open loop, for the whole phase: each
 * opens a 2025-06-18 session (a row in the session store) that is never used or ended.
 */
final class InitializeFlood implements Abuser {

    private final LongSupplier serverPid;
    private LoadDriver driver;
    private CompletableFuture<LoadResult> result;

    private final int atLeast;

    InitializeFlood(LongSupplier serverPid, int atLeast) {
        this.serverPid = serverPid;
        this.atLeast = atLeast;
    }

    @Override
    public String name() {
        return "initialize flood";
    }

    @Override
    public String description() {
        return "initialize (2025-06-18) at the legitimate rate (or faster, to send at least " + atLeast
                + " in the phase), open loop, sessions never ended";
    }

    @Override
    public void start(Stage stage) {
        var headers = MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + stage.abuserToken())
                .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                .add("User-Agent", "isolation-bench");
        var target = new Target("initialize", HttpMethod.POST, "/mcp", List.of(headers), Buffer.buffer(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"flood\",\"version\":\"1\"}}}"), "\"protocolVersion\"", 0);
        driver = new LoadDriver(stage.port(), 1024, serverPid.getAsLong(), Duration.ofSeconds(5), Duration.ofSeconds(5));
        result = CompletableFuture.supplyAsync(() -> {
            try {
                return driver.open(target, stage.floodRate(atLeast), Duration.ofSeconds(stage.phaseSeconds()));
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
                return "the flood did not complete: " + e.getCause();
            }
            return String.format("%,d sent at %.0f/s, %,d sessions opened (200 with a result), errors %s", r.sent(),
                    r.sent() / r.seconds(), r.ok(), r.errorSummary());
        } finally {
            driver.close();
        }
    }
}
