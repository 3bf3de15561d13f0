package dev.quaestor.provider.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.revwalk.RevWalk;

/** Writes commits straight into a repository's object database with JGit, for provider tests. */
final class GitFixture {

    static final FileMode SYMLINK = FileMode.SYMLINK;

    private GitFixture() {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Commits exactly these files (path -> bytes) on top of the branch's tip and moves the branch. */
    static ObjectId commit(Repository repo, String branch, Map<String, byte[]> files, Instant when) throws IOException {
        return commit(repo, branch, files, Map.of(), when);
    }

    static ObjectId commit(Repository repo, String branch, Map<String, byte[]> files, Map<String, FileMode> modes,
            Instant when) throws IOException {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            DirCache dc = DirCache.newInCore();
            DirCacheBuilder b = dc.builder();
            for (var f : new TreeMap<>(files).entrySet()) {
                var e = new DirCacheEntry(f.getKey());
                e.setFileMode(modes.getOrDefault(f.getKey(), FileMode.REGULAR_FILE));
                e.setObjectId(ins.insert(Constants.OBJ_BLOB, f.getValue()));
                b.add(e);
            }
            b.finish();
            ObjectId tree = dc.writeTree(ins);
            return commitTree(repo, ins, branch, tree, when);
        }
    }

    /** Commits a hand-made flat tree whose names no git command would write (such as .git or ..). */
    static ObjectId commitRawTree(Repository repo, String branch, Map<String, byte[]> entries, Instant when)
            throws IOException {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            var tf = new TreeFormatter();
            for (var e : new TreeMap<>(entries).entrySet()) {
                tf.append(e.getKey(), FileMode.REGULAR_FILE, ins.insert(Constants.OBJ_BLOB, e.getValue()));
            }
            return commitTree(repo, ins, branch, ins.insert(tf), when);
        }
    }

    /** A commit no ref points to (as after a force-push). */
    static ObjectId danglingCommit(Repository repo, Map<String, byte[]> files, Instant when) throws IOException {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            DirCache dc = DirCache.newInCore();
            DirCacheBuilder b = dc.builder();
            for (var f : new TreeMap<>(files).entrySet()) {
                var e = new DirCacheEntry(f.getKey());
                e.setFileMode(FileMode.REGULAR_FILE);
                e.setObjectId(ins.insert(Constants.OBJ_BLOB, f.getValue()));
                b.add(e);
            }
            b.finish();
            var cb = new CommitBuilder();
            cb.setTreeId(dc.writeTree(ins));
            var who = new PersonIdent("Test", "test@example.org", when, ZoneOffset.UTC);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage("dangling");
            ObjectId id = ins.insert(cb);
            ins.flush();
            return id;
        }
    }

    private static ObjectId commitTree(Repository repo, ObjectInserter ins, String branch, ObjectId tree, Instant when)
            throws IOException {
        var cb = new CommitBuilder();
        cb.setTreeId(tree);
        ObjectId parent = repo.resolve(Constants.R_HEADS + branch);
        if (parent != null) {
            cb.setParentId(parent);
        }
        var who = new PersonIdent("Test", "test@example.org", when, ZoneOffset.UTC);
        cb.setAuthor(who);
        cb.setCommitter(who);
        cb.setMessage("change at " + when);
        ObjectId id = ins.insert(cb);
        ins.flush();
        RefUpdate ru = repo.updateRef(Constants.R_HEADS + branch);
        ru.setNewObjectId(id);
        ru.setForceUpdate(true);
        RefUpdate.Result r = ru.update();
        if (r != RefUpdate.Result.NEW && r != RefUpdate.Result.FORCED && r != RefUpdate.Result.FAST_FORWARD) {
            throw new IOException("ref update " + branch + ": " + r);
        }
        return id;
    }

    static void tag(Repository repo, String name, ObjectId commit) throws IOException {
        RefUpdate ru = repo.updateRef(Constants.R_TAGS + name);
        ru.setNewObjectId(commit);
        ru.setForceUpdate(true);
        ru.update(new RevWalk(repo));
    }
}
