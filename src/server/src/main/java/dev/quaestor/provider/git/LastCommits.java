package dev.quaestor.provider.git;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * When paths last changed as of a commit: the committer time of the newest commit that touched the path, following
 * its history as {@code git log -1 -- path} does (a merge whose path is as in one of its parents follows that parent;
 * a merge whose path is as in none of them touched it).
 *
 * <p>Bounded: one call answers all its paths (a listing's page) with a single walk, newest commit first, that
 * examines at most {@code depth} commits, each compared with its parents on just the paths still unanswered. A path
 * not answered within them has no answer ({@code null}), never a guessed time. Answers, and the absence of one, are
 * cached by (commit, path): commits never change, and a walk that reaches an earlier head's commit takes its answers
 * from there, so a push costs the new commits, not the history again.
 */
final class LastCommits {

    /** A path as of a commit. */
    record Ask(ObjectId head, String path) {
    }

    private record Key(ObjectId commit, String path) {
    }

    private final Repository repo;
    private final int depth;
    private final Cache<Key, Optional<Instant>> cache = Caffeine.newBuilder().maximumSize(50_000).build();
    /** Commits the walks have looked up (a test's measure of their cost). */
    final LongAdder commitsRead = new LongAdder();

    LastCommits(Repository repo, int depth) {
        this.repo = repo;
        this.depth = depth;
    }

    /** The time for one path, or null if no commit among the newest {@code depth} of its history touched it. */
    Instant of(ObjectId head, String path) throws IOException {
        var ask = new Ask(head.copy(), path);
        return of(List.of(ask)).get(ask);
    }

    /** The times for these paths from one walk; an ask with no answer within the bound maps to null. */
    Map<Ask, Instant> of(Collection<Ask> asks) throws IOException {
        var answers = new HashMap<Ask, Instant>();
        if (depth <= 0) {
            asks.forEach(a -> answers.put(a, null));
            return answers;
        }
        try (RevWalk walk = new CountingWalk(repo, commitsRead)) {
            var waiting = new HashMap<RevCommit, List<Ask>>();
            var queue = new PriorityQueue<RevCommit>(Comparator.comparingInt(RevCommit::getCommitTime).reversed());
            for (Ask a : asks) {
                Optional<Instant> known = cache.getIfPresent(new Key(a.head(), a.path()));
                if (known != null) {
                    answers.put(a, known.orElse(null));
                    continue;
                }
                RevCommit c = walk.parseCommit(a.head());
                wait(waiting, queue, c, a);
            }
            int examined = 0;
            while (!queue.isEmpty() && examined < depth) {
                RevCommit c = queue.poll();
                List<Ask> here = waiting.remove(c);
                var open = new ArrayList<Ask>(here.size());
                for (Ask a : here) {
                    Optional<Instant> known = c.equals(a.head()) ? null : cache.getIfPresent(new Key(c.copy(), a.path()));
                    if (known != null) {
                        answer(answers, a, known.orElse(null));
                    } else {
                        open.add(a);
                    }
                }
                if (open.isEmpty()) {
                    continue;
                }
                examined++;
                step(walk, c, open, answers, waiting, queue);
            }
            for (List<Ask> left : waiting.values()) {
                for (Ask a : left) {
                    answer(answers, a, null); // not within the newest depth commits
                }
            }
        }
        return answers;
    }

    /** Compares {@code c} with its parents on the open paths: each is answered at {@code c} or waits at a parent. */
    private void step(RevWalk walk, RevCommit c, List<Ask> open, Map<Ask, Instant> answers,
            Map<RevCommit, List<Ask>> waiting, PriorityQueue<RevCommit> queue) throws IOException {
        Instant at = Instant.ofEpochSecond(c.getCommitTime());
        int parents = c.getParentCount();
        if (parents == 0) {
            open.forEach(a -> answer(answers, a, at)); // the root commit added it
            return;
        }
        var byPath = new HashMap<String, List<Ask>>();
        for (Ask a : open) {
            byPath.computeIfAbsent(a.path(), p -> new ArrayList<>()).add(a);
        }
        var settled = new HashSet<String>();
        try (TreeWalk tw = new TreeWalk(walk.getObjectReader())) {
            tw.addTree(c.getTree());
            for (int i = 0; i < parents; i++) {
                RevCommit parent = c.getParent(i);
                walk.parseHeaders(parent);
                tw.addTree(parent.getTree());
            }
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(byPath.keySet()), TreeFilter.ANY_DIFF));
            while (tw.next()) {
                String path = tw.getPathString();
                List<Ask> mine = byPath.get(path);
                if (mine == null || !settled.add(path)) {
                    continue;
                }
                int same = -1;
                for (int i = 1; i <= parents && same < 0; i++) {
                    if (tw.getRawMode(i) == tw.getRawMode(0) && tw.idEqual(i, 0)) {
                        same = i - 1;
                    }
                }
                for (Ask a : mine) {
                    if (same < 0) {
                        answer(answers, a, at); // differs from every parent: this commit touched it
                    } else {
                        wait(waiting, queue, c.getParent(same), a);
                    }
                }
            }
        }
        for (var e : byPath.entrySet()) {
            if (!settled.contains(e.getKey())) {
                for (Ask a : e.getValue()) {
                    wait(waiting, queue, c.getParent(0), a); // as in every parent: follow the first
                }
            }
        }
    }

    private static void wait(Map<RevCommit, List<Ask>> waiting, PriorityQueue<RevCommit> queue, RevCommit c, Ask a) {
        waiting.computeIfAbsent(c, k -> {
            queue.add(k);
            return new ArrayList<>();
        }).add(a);
    }

    private void answer(Map<Ask, Instant> answers, Ask a, Instant at) {
        answers.put(a, at);
        cache.put(new Key(a.head(), a.path()), Optional.ofNullable(at));
    }

    /** A walk that counts the commits it looks up. */
    private static final class CountingWalk extends RevWalk {
        private final LongAdder count;

        CountingWalk(Repository repo, LongAdder count) {
            super(repo);
            this.count = count;
        }

        @Override
        protected RevCommit createCommit(AnyObjectId id) {
            count.increment();
            return super.createCommit(id);
        }
    }
}
