package dev.quaestor.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.jboss.logging.Logger;

/**
 * The one place streamed responses get their write deadline ({@link StreamConfig}): a write of n bytes must be
 * done within the deadline plus n at the minimum rate, or the response is cut off (HTTP/1.1: the connection aborted),
 * so that a client that stops reading gives back the worker, the audit-read place and anything else it held. One
 * timer checks every watched response; cuts are counted in {@code quaestor_http_write_deadline_cuts_total} by kind,
 * and responses waiting on their client in {@code quaestor_http_write_waiting}.
 *
 * <p>Two shapes of writer are watched: an {@link OutputStream} (large reads, exports), where a write is one call
 * that blocks while the client does not drain; and an event stream ({@link Multi} of SSE events), where a write is
 * an event handed to the HTTP layer, done when the layer asks for the next one.
 */
// At start, so that its metrics are there (at 0) before the first long read.
@io.quarkus.runtime.Startup
@ApplicationScoped
public class WriteDeadlines {

    private static final Logger LOG = Logger.getLogger(WriteDeadlines.class);

    /** What a streamed response is, for the log and the metric. */
    public enum Kind {
        READ, EXPORT, EVENTS
    }

    /** How long a write must wait on its client to count in the waiting gauge. */
    private static final long WAITING_MILLIS = 100;

    private final Vertx vertx;
    private final long deadlineNanos;
    private final double nanosPerByte;
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final Map<Kind, Counter> cuts = new ConcurrentHashMap<>();
    private final long timer;

    WriteDeadlines(Vertx vertx, StreamConfig config, MeterRegistry metrics) {
        this.vertx = vertx;
        this.deadlineNanos = config.writeDeadline().toNanos();
        this.nanosPerByte = 1e9 / Math.max(1, config.minWriteRate());
        for (Kind k : Kind.values()) {
            cuts.put(k, Counter.builder("quaestor.http.write.deadline.cuts").description("Streamed responses cut off at their write deadline")
                    .tag("kind", k.name().toLowerCase(java.util.Locale.ROOT)).register(metrics));
            Gauge.builder("quaestor.http.write.waiting", this, d -> d.waiting(k))
                    .description("Streamed responses with a write their client has not taken for " + WAITING_MILLIS + " ms or more")
                    .tag("kind", k.name().toLowerCase(java.util.Locale.ROOT)).register(metrics);
        }
        long period = Math.max(50, Math.min(250, config.writeDeadline().toMillis() / 8));
        this.timer = vertx.setPeriodic(period, id -> check());
    }

    /**
     * Watches a response written through an output stream; {@code idle}, if not null, also cuts it off when no write
     * is done for that long (a producer that stopped, or a client that stopped sooner than the write deadline says).
     * Close the watch when the response is written.
     */
    public Watch watch(Kind kind, HttpServerRequest request, Duration idle) {
        var w = new Watch(kind, request, idle == null ? 0 : idle.toNanos());
        watched.add(w);
        return w;
    }

    /** An event stream, watched event by event; {@code size} estimates an event's bytes. */
    public <T> Multi<T> watch(Kind kind, HttpServerRequest request, Multi<T> events, ToLongFunction<T> size) {
        var w = watch(kind, request, null);
        boolean[] first = {true};
        return events.onItem().invoke(e -> w.begin(size.applyAsLong(e)))
                .onRequest().invoke(n -> {
                    // The HTTP layer asks for the next event once the last is written; its first request is not a completion.
                    if (first[0]) {
                        first[0] = false;
                    } else {
                        for (long i = 0; i < n; i++) {
                            w.end();
                        }
                    }
                })
                .onTermination().invoke(w::close);
    }

    /** Responses of a kind whose oldest write not yet taken began at least {@link #WAITING_MILLIS} ago. */
    private int waiting(Kind kind) {
        long since = System.nanoTime() - WAITING_MILLIS * 1_000_000L;
        int n = 0;
        for (Watch w : watched) {
            if (w.kind == kind && w.waitingSince(since)) {
                n++;
            }
        }
        return n;
    }

    private void check() {
        long now = System.nanoTime();
        for (Watch w : watched) {
            String why = w.overdue(now);
            if (why != null && w.cut()) {
                cuts.get(w.kind).increment();
                LOG.warnf("%s response to %s %s; cutting it off", w.kind.name().toLowerCase(java.util.Locale.ROOT),
                        w.request.remoteAddress(), why);
                try {
                    cutOff(w.request);
                } catch (RuntimeException e) {
                    LOG.debugf("cutting off a response failed: %s", e.toString());
                }
            }
        }
    }

    /**
     * Ends the response at once. HTTP/2: the stream is reset. HTTP/1.x: the connection is aborted (RST), dropping
     * what the client has not taken; a plain reset or close would first wait for the client to drain it, which is
     * exactly what a client that stopped reading never does.
     */
    private static void cutOff(HttpServerRequest request) {
        // The response is closed first: its writer, waiting for the client to drain, gives up.
        request.response().reset();
        if (request.version() != HttpVersion.HTTP_2 && request.connection() instanceof ConnectionBase base) {
            Channel channel = base.channel();
            channel.eventLoop().execute(() -> {
                channel.config().setOption(ChannelOption.SO_LINGER, 0);
                channel.close();
            });
        }
    }

    @PreDestroy
    void stop() {
        vertx.cancelTimer(timer);
    }

    /** One watched response. Thread-safe: the writer begins and ends writes, the timer reads them. */
    public final class Watch implements AutoCloseable {

        private final Kind kind;
        private final HttpServerRequest request;
        private final long idleNanos;
        /** Writes begun and not yet done: each its start and allowed length (nanos); at most a few. */
        private final ArrayDeque<long[]> open = new ArrayDeque<>();
        private long lastDone = System.nanoTime();
        private boolean cut;

        private Watch(Kind kind, HttpServerRequest request, long idleNanos) {
            this.kind = kind;
            this.request = request;
            this.idleNanos = idleNanos;
        }

        synchronized void begin(long bytes) {
            open.add(new long[] {System.nanoTime(), deadlineNanos + (long) (Math.max(0, bytes) * nanosPerByte)});
        }

        synchronized void end() {
            open.poll();
            lastDone = System.nanoTime();
        }

        private synchronized boolean waitingSince(long since) {
            long[] w = open.peek();
            return w != null && w[0] - since <= 0;
        }

        private synchronized String overdue(long now) {
            long[] w = open.peek();
            if (w != null && now - w[0] > w[1]) {
                return "did not take a write within " + w[1] / 1_000_000 + " ms";
            }
            if (idleNanos > 0 && now - lastDone > idleNanos) {
                return "made no progress for " + idleNanos / 1_000_000 + " ms";
            }
            return null;
        }

        /** Marks the watch cut; true the first time only. */
        private synchronized boolean cut() {
            if (cut) {
                return false;
            }
            cut = true;
            watched.remove(this);
            return true;
        }

        /**
         * The stream to write the response to: every write through it is timed, and none is made once the connection
         * has closed. The HTTP layer drops what is written to a closed connection without a word, so a writer would
         * otherwise go on to the end (reading all it was asked for) and take its response as written whole.
         */
        public OutputStream wrap(OutputStream out) {
            return new FilterOutputStream(out) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    stillOpen();
                    begin(len);
                    try {
                        out.write(b, off, len);
                    } finally {
                        end();
                    }
                }

                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void flush() throws IOException {
                    stillOpen();
                    begin(0);
                    try {
                        out.flush();
                    } finally {
                        end();
                    }
                }
            };
        }

        private void stillOpen() throws IOException {
            if (request.response().closed()) {
                throw new IOException("the connection closed before the response's end");
            }
        }

        @Override
        public void close() {
            watched.remove(this);
        }
    }
}
