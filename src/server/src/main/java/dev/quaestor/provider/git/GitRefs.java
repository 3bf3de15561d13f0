package dev.quaestor.provider.git;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The refs a git mount serves and how a URI segment names one.
 *
 * <p>The ref is always exactly one URI segment. Canonical URIs cannot carry an encoded {@code /}
 * (the canonicaliser refuses {@code %2F}), so a branch or tag whose name contains {@code /} is
 * written with {@code :} in its place: branch {@code release/2.x} is {@code git://m/release:2.x/...}.
 * Git forbids {@code :} in ref names, so the mapping is one-to-one, and a URI never means
 * different content depending on which other refs exist (as "longest ref prefix wins" would).
 *
 * <p>A segment resolves, in this order: where the mount allows commit ids ({@code options.commit-ids}), 40
 * lower-case hex digits are a commit id, served only if some branch or tag reaches it (so a commit that was
 * force-pushed away is not served); otherwise {@code refs/heads/<name>}, then {@code refs/tags/<name>}. Commit ids
 * are off by default: with them every file is served under a second URI per commit that holds it, one a rule written
 * for a branch ({@code deny git://m/main/hr/**}) does not name, and a file deleted from the branch stays readable
 * through an older commit. Names that are not valid ref names
 * (such as {@code a:..:config}) resolve to nothing. Abbreviated ids, {@code HEAD}, remote-tracking
 * refs and revision expressions ({@code main~1}, {@code main^}) are not accepted.
 */
final class GitRefs {

    private static final Pattern COMMIT_ID = Pattern.compile("[0-9a-f]{40}");

    private record Reach(Map<String, ObjectId> refs, ObjectId commit) {
    }

    private final Repository repo;
    private final boolean commitIds;
    private final Cache<Reach, Boolean> reachable = Caffeine.newBuilder().maximumSize(10_000).build();

    /** {@code commitIds}: whether a segment of 40 hex digits names a commit (see the class comment). */
    GitRefs(Repository repo, boolean commitIds) {
        this.repo = repo;
        this.commitIds = commitIds;
    }

    /** The URI segment for a short branch or tag name. */
    static String segmentOf(String shortName) {
        return shortName.replace('/', ':');
    }

    /** The commit a URI segment names, or null. */
    RevCommit resolve(RevWalk walk, String segment) throws IOException {
        if (segment.isEmpty()) {
            return null;
        }
        if (commitIds && COMMIT_ID.matcher(segment).matches()) {
            return reachableCommit(walk, ObjectId.fromString(segment));
        }
        String name = segment.replace(':', '/');
        for (String prefix : new String[] {Constants.R_HEADS, Constants.R_TAGS}) {
            String full = prefix + name;
            if (!Repository.isValidRefName(full)) {
                return null;
            }
            Ref ref = repo.getRefDatabase().exactRef(full);
            if (ref != null && ref.getObjectId() != null) {
                return commitOf(walk, ref.getObjectId());
            }
        }
        return null;
    }

    /** Every branch and tag, by URI segment, with the commit it points to (tags peeled). */
    Map<String, ObjectId> snapshot() throws IOException {
        var out = new TreeMap<String, ObjectId>();
        try (RevWalk walk = new RevWalk(repo)) {
            // Tags first so that a branch of the same name wins, as in resolve().
            for (String prefix : new String[] {Constants.R_TAGS, Constants.R_HEADS}) {
                for (Ref ref : repo.getRefDatabase().getRefsByPrefix(prefix)) {
                    if (ref.getObjectId() == null) {
                        continue;
                    }
                    RevCommit c = commitOf(walk, ref.getObjectId());
                    if (c != null) {
                        out.put(segmentOf(ref.getName().substring(prefix.length())), c.copy());
                    }
                }
            }
        }
        return out;
    }

    /** The branch HEAD points to, as a segment, or null (detached or unborn HEAD). */
    String defaultBranchSegment() throws IOException {
        Ref head = repo.getRefDatabase().exactRef(Constants.HEAD);
        if (head == null || !head.isSymbolic() || !head.getTarget().getName().startsWith(Constants.R_HEADS)) {
            return null;
        }
        return segmentOf(head.getTarget().getName().substring(Constants.R_HEADS.length()));
    }

    private static RevCommit commitOf(RevWalk walk, ObjectId id) throws IOException {
        try {
            RevObject o = walk.peel(walk.parseAny(id));
            return o instanceof RevCommit c ? c : null;
        } catch (MissingObjectException e) {
            return null;
        }
    }

    private RevCommit reachableCommit(RevWalk walk, ObjectId id) throws IOException {
        RevCommit target = commitOf(walk, id);
        if (target == null) {
            return null;
        }
        Map<String, ObjectId> refs = snapshot();
        Boolean known = reachable.getIfPresent(new Reach(refs, target.copy()));
        if (known == null) {
            known = isReachable(target.copy(), refs);
            reachable.put(new Reach(refs, target.copy()), known);
        }
        return known ? target : null;
    }

    private boolean isReachable(ObjectId target, Map<String, ObjectId> refs) throws IOException {
        try (RevWalk w = new RevWalk(repo)) {
            RevCommit t = w.parseCommit(target);
            for (ObjectId tip : refs.values()) {
                w.markStart(w.parseCommit(tip));
            }
            // Commits older than the target cannot have it as an ancestor only if dates are honest,
            // so walk everything reachable rather than cut off by date.
            for (RevCommit c = w.next(); c != null; c = w.next()) {
                if (c.equals(t)) {
                    return true;
                }
            }
            return false;
        }
    }
}
