package dev.quaestor.mcp;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Cuts off a streamed response that makes no progress for longer than its write timeout: a client
 * that stops reading (or a provider that stops producing) would otherwise hold a worker thread for
 * as long as the connection stays open. Progress is any completed write to the wrapped stream.
 */
final class WriteStallWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WriteStallWatch.class);

    private final Vertx vertx;
    private final HttpServerRequest request;
    private final long timeoutNanos;
    private final long timerId;
    private volatile long lastProgress = System.nanoTime();
    private volatile boolean cut;

    WriteStallWatch(Vertx vertx, HttpServerRequest request, Duration timeout) {
        this.vertx = vertx;
        this.request = request;
        this.timeoutNanos = timeout.toNanos();
        long period = Math.max(100, Math.min(1000, timeout.toMillis() / 4));
        this.timerId = vertx.setPeriodic(period, id -> check());
    }

    private void check() {
        if (!cut && System.nanoTime() - lastProgress > timeoutNanos) {
            cut = true;
            LOG.warnf("streamed response to %s made no progress for %d ms; cutting it off",
                    request.remoteAddress(), timeoutNanos / 1_000_000);
            request.response().reset();
        }
    }

    /** True if this watch cut the response off. */
    boolean cut() {
        return cut;
    }

    OutputStream wrap(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                lastProgress = System.nanoTime();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                lastProgress = System.nanoTime();
            }
        };
    }

    @Override
    public void close() {
        vertx.cancelTimer(timerId);
    }
}
