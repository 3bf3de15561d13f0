package dev.quaestor.provider.git;

import dev.quaestor.provider.ChangeListeners;
import dev.quaestor.uri.CanonicalUri;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.jboss.logging.Logger;

/**
 * Turns moving refs into change events. Each {@link #poll} compares every branch and tag with
 * the previous snapshot: for a ref that moved, each path that differs between the old and new
 * commit is {@code updated} under that ref's URIs, and paths added or removed (or refs created or
 * deleted) give one {@code listChanged}. URIs naming a commit id never change and get no events.
 */
final class RefWatcher {

    private static final Logger LOG = Logger.getLogger(RefWatcher.class);

    /** Above this many changed paths in one move, only listChanged is sent for that ref. */
    static final int MAX_PATH_EVENTS = 10_000;

    private final Repository repo;
    private final GitRefs refs;
    private final CanonicalUri base;
    private final ChangeListeners listeners;
    private Map<String, ObjectId> last;

    RefWatcher(Repository repo, GitRefs refs, CanonicalUri base, ChangeListeners listeners) {
        this.repo = repo;
        this.refs = refs;
        this.base = base;
        this.listeners = listeners;
    }

    /** Takes the snapshot later polls compare with. */
    synchronized void reset() {
        try {
            last = refs.snapshot();
        } catch (IOException e) {
            LOG.warnf("git refs of %s unreadable: %s", base, e.getMessage());
            last = null;
        }
    }

    synchronized void poll() {
        Map<String, ObjectId> now;
        try {
            now = refs.snapshot();
        } catch (IOException e) {
            LOG.warnf("git refs of %s unreadable: %s", base, e.getMessage());
            return;
        }
        Map<String, ObjectId> before = last;
        last = now;
        if (before == null || listeners.isEmpty()) {
            return;
        }
        boolean listChanged = !before.keySet().equals(now.keySet());
        var names = new HashSet<>(now.keySet());
        names.retainAll(before.keySet());
        for (String seg : names) {
            ObjectId from = before.get(seg);
            ObjectId to = now.get(seg);
            if (!Objects.equals(from, to)) {
                try {
                    listChanged |= diff(seg, from, to);
                } catch (IOException e) {
                    LOG.warnf("git diff of %s %s..%s failed: %s", seg, from.name(), to.name(), e.getMessage());
                    listChanged = true;
                }
            }
        }
        if (listChanged) {
            listeners.listChanged();
        }
    }

    /** Fires updated for each changed path; true if paths were added or removed. */
    private boolean diff(String seg, ObjectId from, ObjectId to) throws IOException {
        boolean membership = false;
        int events = 0;
        CanonicalUri refBase = base.child(seg);
        try (RevWalk walk = new RevWalk(repo); TreeWalk tw = new TreeWalk(walk.getObjectReader())) {
            tw.addTree(walk.parseCommit(from).getTree());
            tw.addTree(walk.parseCommit(to).getTree());
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                boolean was = GitProvider.isServedMode(tw.getFileMode(0));
                boolean is = GitProvider.isServedMode(tw.getFileMode(1));
                if (!was && !is) {
                    continue;
                }
                membership |= was != is;
                if (++events > MAX_PATH_EVENTS) {
                    return true;
                }
                CanonicalUri uri = GitPaths.uriOf(refBase, tw.getPathString());
                if (uri != null) {
                    listeners.updated(uri);
                }
            }
        }
        return membership;
    }
}
