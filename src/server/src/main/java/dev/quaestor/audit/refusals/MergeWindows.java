package dev.quaestor.audit.refusals;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The open merge windows: refusals with the same key (subject, or without one the source address; client; reason)
 * are counted into one {@link RefusalSummary} for one window, which opens with the first of them. When it closes,
 * its {@code ATTEMPT_SUMMARY} goes to the group-commit writer like any record, and every refusal it counts is
 * released once that record has committed, answered with its request id. A key therefore writes at most one
 * record per window and per {@link UriTally#SAMPLE} distinct URIs its refusals name (a window whose URI list is full
 * closes at once, and the next takes its place, so no URI is ever left out of a summary), and no count exists only
 * in memory once it has been answered: a crash loses only refusals that were never answered.
 */
final class MergeWindows {

    private static final Logger LOG = Logger.getLogger(MergeWindows.class);

    /** What refusals must share to be merged; the reason is what their records would say: kind, outcome and error code. */
    record Key(String subject, String address, String client, String reason) {
        static Key of(AuditEvent e) {
            Caller c = e.caller();
            String subject = c == null ? null : c.subject();
            // Without a subject (refused before any token was accepted) the source address stands for the caller.
            return new Key(subject, subject == null && c != null ? c.sourceIp() : null, c == null ? null : c.client(),
                    e.kind() + "/" + e.outcome() + "/" + e.errorCode());
        }

        /** The key this one's client and reason share with every subject and address. */
        Key shared() {
            return new Key(null, "*", client, reason);
        }
    }

    /** One window: the summary's request id, what it counts, and its commit. */
    static final class Window {
        final String requestId = RequestIds.next();
        final CompletableFuture<Void> committed = new CompletableFuture<>();
        private final RefusalSummary summary;

        Window(AuditEvent first) {
            this.summary = new RefusalSummary(first);
        }

        /** Counts {@code e}, unless it names a URI this window's summary has no room for: then false, nothing counted. */
        synchronized boolean add(AuditEvent e) {
            if (!summary.takes(e)) {
                return false;
            }
            summary.add(e);
            return true;
        }

        /** The summary; {@code answeredFirst}: its refusals were answered before they were recorded. */
        synchronized AuditEvent close(boolean answeredFirst) {
            return summary.toEvent(requestId, answeredFirst);
        }

        synchronized long count() {
            return summary.count();
        }

        /** The outcome every refusal it counts has (the key's reason holds it). */
        synchronized String outcome() {
            return summary.outcome();
        }
    }

    private final Map<Key, Window> open = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final long windowMillis;
    private final Consumer<Window> write;
    private final int maxOpen;
    private volatile boolean stopped;

    /** {@code write} hands a closed window's summary to the audit log and completes the window's commit. */
    MergeWindows(Duration window, int maxOpen, Consumer<Window> write) {
        this(window, maxOpen, write, Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-refusal-windows");
            t.setDaemon(true);
            return t;
        }));
    }

    /** {@code timer} runs each window's close at its end; one thread, so closes run in the order they are due. */
    MergeWindows(Duration window, int maxOpen, Consumer<Window> write, ScheduledExecutorService timer) {
        this.windowMillis = window.toMillis();
        this.maxOpen = maxOpen;
        this.write = write;
        this.timer = timer;
    }

    /**
     * Counts a refusal into its key's open window, opening one if there is none, and returns that window.
     * Null when so many windows are open that another would not be bounded (the caller fails closed).
     */
    Window join(AuditEvent refusal) {
        return join(refusal, () -> true);
    }

    /**
     * As {@link #join(AuditEvent)}, but a window of the refusal's own key opens only if {@code mayOpen} says so (asked
     * only then); else the refusal joins the window its client and reason share with every other such key.
     */
    Window join(AuditEvent refusal, BooleanSupplier mayOpen) {
        Key key = Key.of(refusal);
        boolean[] refused = {false};
        Window w = join(key, refusal, () -> {
            refused[0] = !mayOpen.getAsBoolean();
            return !refused[0];
        });
        return refused[0] ? join(key.shared(), refusal, () -> true) : w;
    }

    private Window join(Key key, AuditEvent refusal, BooleanSupplier mayOpen) {
        Window[] opened = {null};
        Window[] full = {null};
        Window w = open.compute(key, (k, current) -> {
            if (current != null) {
                if (current.add(refusal)) {
                    return current;
                }
                // Its URI list is full: it closes now, and the next window, counting this refusal, takes its place.
                full[0] = current;
                opened[0] = new Window(refusal);
                return opened[0];
            }
            if (open.size() >= maxOpen || !mayOpen.getAsBoolean()) {
                return null;
            }
            opened[0] = new Window(refusal);
            return opened[0];
        });
        if (full[0] != null) {
            flush(full[0]);
        }
        if (opened[0] != null) {
            // Scheduled once the window is in the map, so that closing always finds it there.
            long delay = stopped ? 0 : windowMillis;
            timer.schedule(() -> close(key, opened[0]), delay, TimeUnit.MILLISECONDS);
        }
        return w;
    }

    /** Takes the window out (later refusals open a new one) and writes its summary. */
    private void close(Key key, Window w) {
        if (!open.remove(key, w)) {
            return; // closed already (at shutdown, before its timer, or when its URI list filled)
        }
        flush(w);
    }

    /** Writes a window's summary, taken out of the open ones already. */
    private void flush(Window w) {
        try {
            write.accept(w);
        } catch (RuntimeException e) {
            LOG.errorf(e, "summary of %d refused request(s) not written", w.count());
            w.committed.completeExceptionally(new AuditUnavailableException(e));
        }
    }

    int openWindows() {
        return open.size();
    }

    /** Closes every open window now (shutdown, before the writer commits its queue); later ones close at once. */
    void closeAll() {
        stopped = true;
        for (var e : Map.copyOf(open).entrySet()) {
            close(e.getKey(), e.getValue());
        }
    }
}
