package dev.quaestor.pipeline;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The rest of a large read, each read from it held to the mount's time box. The provider call that opened the content
 * ran in its time box, but what is read after it returns is read outside it: a backend that stalls after the first
 * bytes (a network file system, a remote store) would hold the reading thread, and the request's place, for as long
 * as it stalls. A read that takes longer than the time box is ended: the stream is closed and the reading thread
 * interrupted, which is what unblocks a socket or an interruptible channel, and the read fails with {@link Expired}.
 */
final class TimeBoxedStream extends FilterInputStream {

    /** A read from the provider's stream outlasted the mount's time box. */
    static final class Expired extends InterruptedIOException {
        Expired(long timeoutMs) {
            super("the provider's stream gave nothing for " + timeoutMs + " ms (the mount's time box)");
        }
    }

    private static final ScheduledThreadPoolExecutor WATCH = new ScheduledThreadPoolExecutor(1, r -> {
        var t = new Thread(r, "quaestor-stream-time-box");
        t.setDaemon(true);
        return t;
    });

    static {
        WATCH.setRemoveOnCancelPolicy(true); // a read that returns in time leaves nothing queued behind it
    }

    private final long timeoutMs;
    /** Guarded by this: whether a read is under way, and whether one was ended. */
    private boolean reading;
    private boolean expired;

    TimeBoxedStream(InputStream in, long timeoutMs) {
        super(in);
        this.timeoutMs = timeoutMs;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        synchronized (this) {
            if (expired) {
                throw new Expired(timeoutMs);
            }
            reading = true;
        }
        Thread reader = Thread.currentThread();
        ScheduledFuture<?> watch = WATCH.schedule(() -> expire(reader), timeoutMs, TimeUnit.MILLISECONDS);
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            synchronized (this) {
                if (expired) {
                    var timedOut = new Expired(timeoutMs);
                    timedOut.initCause(e);
                    throw timedOut;
                }
            }
            throw e;
        } finally {
            watch.cancel(false);
            synchronized (this) {
                reading = false;
                if (expired) {
                    Thread.interrupted(); // the interrupt was for the read, not for what the thread does next
                }
            }
        }
    }

    /** Ends the read under way, if one still is: the thread is interrupted and the stream closed. */
    private synchronized void expire(Thread reader) {
        if (!reading) {
            return;
        }
        expired = true;
        reader.interrupt();
        try {
            in.close();
        } catch (IOException | RuntimeException e) {
            // closing is the other way a read is ended; the interrupt was one
        }
    }
}
