package dev.quaestor.pipeline;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * The time boxes of provider calls: a call still running at its deadline is interrupted, and ends in a
 * {@link TimeoutException} whatever it returns or throws, as SmallRye Fault Tolerance's timeout ends it. One thread
 * watches every call in flight, looking at them each {@code tick}, so that a call that ends in time wakes no other
 * thread: SmallRye's timer thread is woken by every call it times, one more thread hand-off on every read. A deadline
 * is therefore met within one tick.
 */
final class TimeBoxes implements AutoCloseable {

    /** One call in flight: its thread, its deadline, and whether it ended or was stopped, decided once under its lock. */
    private static final class Box {
        private final Thread thread;
        private final long deadline;
        private boolean settled;
        private boolean expired;

        Box(Thread thread, long deadline) {
            this.thread = thread;
            this.deadline = deadline;
        }

        /** The watcher's side: interrupts the call if it has not ended. */
        synchronized void expire() {
            if (!settled) {
                settled = true;
                expired = true;
                thread.interrupt();
            }
        }

        /** The call's side, once it returns or throws: whether it was stopped (its interrupt already delivered). */
        synchronized boolean end() {
            settled = true;
            return expired;
        }
    }

    private final Set<Box> inFlight = ConcurrentHashMap.newKeySet();
    private final long tickNanos;
    private final Thread watcher;
    private volatile boolean open = true;

    /** {@code tickMillis}: how often the calls in flight are looked at. */
    TimeBoxes(long tickMillis) {
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, tickMillis));
        this.watcher = new Thread(this::watch, "quaestor-provider-time-boxes");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The tick for time boxes of at least {@code shortestMillis}: a twentieth of it, from 5 to 100 ms. */
    static long tickFor(long shortestMillis) {
        return Math.max(5, Math.min(100, shortestMillis / 20));
    }

    /**
     * Runs {@code work} on this thread within {@code timeoutMillis}; past it, the thread is interrupted and the call
     * ends in a {@link TimeoutException} (the interrupt is cleared before it is thrown).
     */
    <T> T run(long timeoutMillis, Supplier<T> work) {
        var box = new Box(Thread.currentThread(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        inFlight.add(box);
        T result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            if (ended(box)) {
                throw timedOut(timeoutMillis, e);
            }
            throw e;
        }
        if (ended(box)) {
            throw timedOut(timeoutMillis, null);
        }
        return result;
    }

    private boolean ended(Box box) {
        inFlight.remove(box);
        return box.end();
    }

    private static TimeoutException timedOut(long timeoutMillis, Throwable cause) {
        Thread.interrupted(); // delivered by the watcher, and meant for the call alone
        var e = new TimeoutException("provider call timed out after " + timeoutMillis + " ms");
        if (cause != null) {
            e.addSuppressed(cause);
        }
        return e;
    }

    private void watch() {
        while (open) {
            LockSupport.parkNanos(tickNanos);
            long now = System.nanoTime();
            for (Box box : inFlight) {
                if (now - box.deadline >= 0) {
                    box.expire();
                }
            }
        }
    }

    @Override
    public void close() {
        open = false;
        LockSupport.unpark(watcher);
    }
}
