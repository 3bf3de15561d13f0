package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The listeners registered with one provider, for providers to fire events at. A failing
 * listener is logged and does not stop the others. {@code onFirst} runs when the first listener
 * arrives and {@code onLast} when the last one leaves, so a provider watches only while someone
 * listens.
 */
public final class ChangeListeners {

    private static final Logger LOG = Logger.getLogger(ChangeListeners.class);

    private final CopyOnWriteArrayList<ResourceChangeListener> listeners = new CopyOnWriteArrayList<>();
    private final Runnable onFirst;
    private final Runnable onLast;

    public ChangeListeners(Runnable onFirst, Runnable onLast) {
        this.onFirst = onFirst;
        this.onLast = onLast;
    }

    public synchronized ChangeRegistration add(ResourceChangeListener listener) {
        listeners.add(listener);
        if (listeners.size() == 1) {
            onFirst.run();
        }
        var closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                remove(listener);
            }
        };
    }

    private synchronized void remove(ResourceChangeListener listener) {
        if (listeners.remove(listener) && listeners.isEmpty()) {
            onLast.run();
        }
    }

    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    public void updated(CanonicalUri uri) {
        for (ResourceChangeListener l : listeners) {
            try {
                l.updated(uri);
            } catch (RuntimeException e) {
                LOG.warnf(e, "change listener failed on %s", uri);
            }
        }
    }

    /** This entry came or went: see {@link ResourceChangeListener#listChanged(CanonicalUri)}. */
    public void listChanged(CanonicalUri entry) {
        for (ResourceChangeListener l : listeners) {
            try {
                l.listChanged(entry);
            } catch (RuntimeException e) {
                LOG.warnf(e, "change listener failed on list_changed for %s", entry);
            }
        }
    }

    /** Entries came or went somewhere in the mount: see {@link ResourceChangeListener#listChanged()}. */
    public void listChanged() {
        for (ResourceChangeListener l : listeners) {
            try {
                l.listChanged();
            } catch (RuntimeException e) {
                LOG.warn("change listener failed on list_changed", e);
            }
        }
    }
}
