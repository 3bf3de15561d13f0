package dev.quaestor.provider.git;

import dev.quaestor.provider.ChangeListeners;
import dev.quaestor.uri.CanonicalUri;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.jboss.logging.Logger;

/**
 * Turns moving refs into change events. Each {@link #poll} compares every branch and tag with
 * the previous snapshot: for a ref that moved, each path that differs between the old and new
 * commit is {@code updated} under that ref's URIs, and each path added or removed is named in a
 * {@code listChanged(entry)}; a ref created or deleted names every path of its tree. A ref whose
 * change spans more than {@link #MAX_PATH_EVENTS} paths, or cannot be diffed, gives one mount-wide
 * {@code listChanged()} instead. URIs naming a commit id never change and get no events.
 */
final class RefWatcher {

    private static final Logger LOG = Logger.getLogger(RefWatcher.class);

    /** Above this many changed paths in one ref's change, the rest is reported as a mount-wide listChanged. */
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
        var names = new TreeSet<>(now.keySet());
        names.addAll(before.keySet());
        boolean somewhere = false;
        for (String seg : names) {
            ObjectId from = before.get(seg);
            ObjectId to = now.get(seg);
            if (!Objects.equals(from, to)) {
                try {
                    somewhere |= !diff(seg, from, to);
                } catch (IOException e) {
                    LOG.warnf("git diff of %s %s..%s failed: %s", seg, name(from), name(to), e.getMessage());
                    somewhere = true;
                }
            }
        }
        if (somewhere) {
            listeners.listChanged();
        }
    }

    private static String name(ObjectId id) {
        return id == null ? "(none)" : id.name();
    }

    /**
     * Names what changed under one ref: {@code updated} for each changed path of a ref that moved, {@code listChanged}
     * for each path added or removed (every path of a ref created or deleted). False if the change was too large to
     * name (more than {@link #MAX_PATH_EVENTS} paths): nothing is named then, and the caller reports a change somewhere
     * in the mount instead. The events are held until the walk ends so that a large change is not named in part.
     */
    private boolean diff(String seg, ObjectId from, ObjectId to) throws IOException {
        var events = new ArrayList<PathEvent>();
        CanonicalUri refBase = base.child(seg);
        try (RevWalk walk = new RevWalk(repo); TreeWalk tw = new TreeWalk(walk.getObjectReader())) {
            addTree(tw, walk, from);
            addTree(tw, walk, to);
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                boolean was = GitProvider.isServedMode(tw.getFileMode(0));
                boolean is = GitProvider.isServedMode(tw.getFileMode(1));
                if (!was && !is) {
                    continue;
                }
                if (events.size() == MAX_PATH_EVENTS) {
                    return false;
                }
                events.add(new PathEvent(GitPaths.uriOf(refBase, tw.getPathString()), was != is));
            }
        }
        boolean moved = from != null && to != null;
        for (var e : events) {
            if (e.uri() == null) {
                continue;
            }
            if (moved) {
                listeners.updated(e.uri());
            }
            if (e.addedOrRemoved()) {
                listeners.listChanged(e.uri());
            }
        }
        return true;
    }

    /** A changed path's URI (null where the path has none) and whether it was added or removed. */
    private record PathEvent(CanonicalUri uri, boolean addedOrRemoved) {
    }

    /** The commit's tree, or an empty one for a ref that does not exist on that side. */
    private static void addTree(TreeWalk tw, RevWalk walk, ObjectId commit) throws IOException {
        if (commit == null) {
            tw.addTree(new EmptyTreeIterator());
        } else {
            tw.addTree(walk.parseCommit(commit).getTree());
        }
    }
}
