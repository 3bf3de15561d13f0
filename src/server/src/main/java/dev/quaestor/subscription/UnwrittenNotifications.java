package dev.quaestor.subscription;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The notifications a stream has taken but not yet handed to its connection, each with what to run should the stream
 * end first. A notification counts as written once the stream's writer takes it from the stream's buffer; what is
 * still there when the stream ends (the client left, the buffer overflowed) was never sent, and its record, which said
 * {@code ok}, gets a second one saying so.
 *
 * @param <E> the stream's event type (events are told apart by identity)
 */
public final class UnwrittenNotifications<E> {

    private final Map<E, Runnable> waiting = new IdentityHashMap<>();
    private boolean ended;

    /** Keeps {@code event} until it is written; false, keeping nothing, once the stream has ended. */
    public synchronized boolean add(E event, Runnable ifNotWritten) {
        if (ended) {
            return false;
        }
        waiting.put(event, ifNotWritten);
        return true;
    }

    /** The event was written, or was never put on the stream after all. */
    public synchronized void remove(E event) {
        waiting.remove(event);
    }

    /** The stream has ended: runs what was kept for each event not written, once. */
    public void ended() {
        List<Runnable> lost;
        synchronized (this) {
            ended = true;
            lost = new ArrayList<>(waiting.values());
            waiting.clear();
        }
        lost.forEach(Runnable::run);
    }
}
