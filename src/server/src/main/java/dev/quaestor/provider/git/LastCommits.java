package dev.quaestor.provider.git;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.time.Instant;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilter;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * When a path last changed as of a commit: the committer time of the newest commit reachable from
 * it that touched the path ({@code git log -1 -- path}). Commits never change, so answers are
 * cached by (commit, path) without invalidation.
 */
final class LastCommits {

    private record Key(ObjectId commit, String path) {
    }

    private final Repository repo;
    private final Cache<Key, Instant> cache = Caffeine.newBuilder().maximumSize(50_000).build();

    LastCommits(Repository repo) {
        this.repo = repo;
    }

    Instant of(RevCommit head, String path) throws IOException {
        var key = new Key(head.copy(), path);
        Instant known = cache.getIfPresent(key);
        if (known != null) {
            return known;
        }
        Instant found;
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setTreeFilter(AndTreeFilter.create(PathFilter.create(path), TreeFilter.ANY_DIFF));
            walk.markStart(walk.parseCommit(head));
            RevCommit c = walk.next();
            found = Instant.ofEpochSecond((c != null ? c : head).getCommitTime());
        }
        cache.put(key, found);
        return found;
    }
}
