package dev.quaestor.subscription;

import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The list changes of one coalescing window: the entries the providers named, and the mounts where something changed
 * that no entry names. Entries are bounded: once {@code max} are waiting, a further entry is kept as a change
 * somewhere in its mount, which only holders who may list the whole mount are told of (fail closed: the others miss
 * it, nobody learns more than a listing would show).
 */
final class PendingListChanges {

    /** What one window drained. */
    record Window(List<CanonicalUri> entries, List<CanonicalUri> wholeMounts) {
        boolean isEmpty() {
            return entries.isEmpty() && wholeMounts.isEmpty();
        }
    }

    private final int max;
    private final Set<CanonicalUri> entries = ConcurrentHashMap.newKeySet();
    private final Set<CanonicalUri> wholeMounts = ConcurrentHashMap.newKeySet();

    PendingListChanges(int max) {
        this.max = max;
    }

    /**
     * An entry of the mount at {@code mount} came or went. False if it did not fit and was kept as a change somewhere
     * in the mount. An entry outside its mount (a provider's mistake) is kept the same way.
     */
    boolean entry(CanonicalUri mount, CanonicalUri entry) {
        if (entry == null || !entry.isWithin(mount)) {
            wholeMounts.add(mount);
            return true;
        }
        if (entries.size() < max || entries.contains(entry)) {
            entries.add(entry);
            return true;
        }
        wholeMounts.add(mount);
        return false;
    }

    /** Something in the mount at {@code mount} came or went, the provider cannot say what. */
    void wholeMount(CanonicalUri mount) {
        wholeMounts.add(mount);
    }

    /** Takes what has gathered since the last drain. */
    Window drain() {
        return new Window(drain(entries), drain(wholeMounts));
    }

    void clear() {
        entries.clear();
        wholeMounts.clear();
    }

    private static List<CanonicalUri> drain(Set<CanonicalUri> pending) {
        var out = new ArrayList<CanonicalUri>();
        for (var it = pending.iterator(); it.hasNext();) {
            out.add(it.next());
            it.remove();
        }
        return out;
    }
}
