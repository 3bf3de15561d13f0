package dev.quaestor.provider.git;

import static dev.quaestor.provider.git.GitFixture.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.uri.UriCanonicalizer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing page's (and a read's) {@code lastModified} costs a bounded walk, not each path's history: a repository of
 * a page of files committed once, then thousands of commits that each change one other file.
 */
class GitLastModifiedTest {

    static final int PAGE = 50;
    static final int HISTORY = 3000;
    static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

    /** Built once for the class: thousands of commits take a while to write. */
    @TempDir
    static Path dir;
    static Repository repo;
    final List<GitProvider> open = new ArrayList<>();

    @BeforeAll
    static void repository() throws Exception {
        repo = Git.init().setDirectory(dir.resolve("r").toFile()).setBare(true).setInitialBranch("main").call()
                .getRepository();
        // Into one pack, as a real repository's history is: thousands of loose objects take long to write.
        try (ObjectInserter ins = ((org.eclipse.jgit.internal.storage.file.ObjectDirectory) repo.getObjectDatabase())
                .newPackInserter()) {
            var pages = new TreeFormatter();
            for (int i = 0; i < PAGE; i++) {
                pages.append(String.format("%02d.txt", i), FileMode.REGULAR_FILE,
                        ins.insert(Constants.OBJ_BLOB, utf8("page " + i + "\n")));
            }
            ObjectId pagesTree = ins.insert(pages);
            ObjectId parent = null;
            for (int n = 0; n <= HISTORY; n++) {
                var root = new TreeFormatter();
                root.append("pages", FileMode.TREE, pagesTree);
                root.append("zz-hot.txt", FileMode.REGULAR_FILE, ins.insert(Constants.OBJ_BLOB, utf8("version " + n + "\n")));
                parent = commit(ins, ins.insert(root), START.plusSeconds(n), parent);
            }
            ins.flush();
            move("main", parent);
        }
    }

    @AfterEach
    void close() {
        open.forEach(GitProvider::close);
    }

    @AfterAll
    static void closeRepository() {
        repo.close();
    }

    private static ObjectId commit(ObjectInserter ins, ObjectId tree, Instant when, ObjectId... parents) throws IOException {
        var cb = new CommitBuilder();
        cb.setTreeId(tree);
        for (ObjectId p : parents) {
            if (p != null) {
                cb.addParentId(p);
            }
        }
        var who = new PersonIdent("Test", "test@example.org", when, ZoneOffset.UTC);
        cb.setAuthor(who);
        cb.setCommitter(who);
        cb.setMessage("at " + when);
        return ins.insert(cb);
    }

    private static void move(String branch, ObjectId to) throws IOException {
        RefUpdate ru = repo.updateRef(Constants.R_HEADS + branch);
        ru.setNewObjectId(to);
        ru.setForceUpdate(true);
        ru.update();
    }

    GitProvider provider(Map<String, String> options) {
        var settings = new HashMap<>(options);
        settings.put("repository", dir.resolve("r").toString());
        var p = (GitProvider) new GitProviderFactory().create(new Mount("r", "git",
                UriCanonicalizer.canonicalize("git://r/"), "git://r/", settings));
        open.add(p);
        return p;
    }

    @Test
    void aPageOfPathsUntouchedForThousandsOfCommitsReadsAtMostTheBoundAndHasNoLastModified() {
        var p = provider(Map.of());
        var page = p.list(null, PAGE);
        assertEquals(PAGE, page.items().size());
        long read = p.lastModifiedCommitsRead();
        assertTrue(read <= GitProvider.DEFAULT_LAST_MODIFIED_DEPTH + PAGE,
                "one page read " + read + " commits for its lastModified (the history is " + HISTORY + ")");
        for (ResourceEntry e : page.items()) {
            assertTrue(e.uri().toString().startsWith("git://r/main/pages/"), e.uri().toString());
            assertNull(e.lastModified(), "not touched within the newest commits: no time rather than a wrong one");
        }
        var rest = p.list(page.nextCursor(), PAGE).items();
        assertEquals("git://r/main/zz-hot.txt", rest.get(0).uri().toString());
        assertEquals(START.plusSeconds(HISTORY), rest.get(0).lastModified());
    }

    @Test
    void withinTheBoundAPageFindsEachPathsLastCommitWithOneWalk() {
        var p = provider(Map.of("last-modified-depth", Integer.toString(HISTORY + 10)));
        var page = p.list(null, PAGE);
        long read = p.lastModifiedCommitsRead();
        assertTrue(read <= HISTORY + 1 + PAGE, "one walk for the page, not one per path: read " + read);
        for (ResourceEntry e : page.items()) {
            assertEquals(START, e.lastModified(), e.uri().toString());
        }
        // Answers are kept: the same page again reads nothing more.
        p.list(null, PAGE);
        assertEquals(read, p.lastModifiedCommitsRead());
    }

    @Test
    void aReadIsBoundedToo() {
        var p = provider(Map.of());
        var old = p.read(UriCanonicalizer.canonicalize("git://r/main/pages/07.txt"));
        assertNull(old.entry().lastModified());
        long read = p.lastModifiedCommitsRead();
        assertTrue(read <= GitProvider.DEFAULT_LAST_MODIFIED_DEPTH + 2, "one read read " + read + " commits");
        var hot = p.read(UriCanonicalizer.canonicalize("git://r/main/zz-hot.txt"));
        assertEquals(START.plusSeconds(HISTORY), hot.entry().lastModified());
    }

    /**
     * Through merges, the path's own history: a merge that takes a side's version follows that side, one whose
     * version is in neither parent touched it, and a push costs the new commits, not the history again.
     */
    @Test
    void mergesAreFollowedAsGitLogFollowsThem() throws Exception {
        ObjectId head = repo.resolve("refs/heads/main");
        move("topic", head);
        var p = provider(Map.of("list-refs", "topic"));
        p.list(null, 100);
        Instant side = START.plusSeconds(HISTORY + 100);
        Instant mainline = START.plusSeconds(HISTORY + 200);
        Instant merged = START.plusSeconds(HISTORY + 300);
        try (ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId pages00 = ins.insert(Constants.OBJ_BLOB, utf8("page 0, on the side\n"));
            ObjectId pages01Main = ins.insert(Constants.OBJ_BLOB, utf8("page 1, on main\n"));
            ObjectId pages01Merge = ins.insert(Constants.OBJ_BLOB, utf8("page 1, resolved in the merge\n"));
            ObjectId pages02Main = ins.insert(Constants.OBJ_BLOB, utf8("page 2, on main\n"));
            ObjectId sideCommit = commit(ins, tree(ins, Map.of("00.txt", pages00)), side, head);
            ObjectId mainCommit = commit(ins, tree(ins, Map.of("01.txt", pages01Main, "02.txt", pages02Main)), mainline,
                    head);
            ObjectId merge = commit(ins, tree(ins, Map.of("00.txt", pages00, "01.txt", pages01Merge, "02.txt",
                    pages02Main)), merged, mainCommit, sideCommit);
            ins.flush();
            move("topic", merge);
        }
        long before = p.lastModifiedCommitsRead();
        Map<String, Instant> times = new HashMap<>();
        p.list(null, 100).items().forEach(e -> times.put(e.uri().toString(), e.lastModified()));
        assertEquals(side, times.get("git://r/topic/pages/00.txt"), "the merge took the side's version");
        assertEquals(merged, times.get("git://r/topic/pages/01.txt"), "the merge's own version");
        assertEquals(mainline, times.get("git://r/topic/pages/02.txt"), "the merge kept main's version");
        assertNull(times.get("git://r/topic/pages/03.txt"));
        assertEquals(START.plusSeconds(HISTORY), times.get("git://r/topic/zz-hot.txt"));
        assertTrue(p.lastModifiedCommitsRead() - before <= 10, "after a push of three commits, the walk read "
                + (p.lastModifiedCommitsRead() - before));
    }

    /** The root tree of the history's last commit with these files of {@code pages/} replaced. */
    private ObjectId tree(ObjectInserter ins, Map<String, ObjectId> changed) throws IOException {
        var pages = new TreeFormatter();
        for (int i = 0; i < PAGE; i++) {
            String name = String.format("%02d.txt", i);
            ObjectId blob = changed.containsKey(name) ? changed.get(name)
                    : ins.insert(Constants.OBJ_BLOB, utf8("page " + i + "\n"));
            pages.append(name, FileMode.REGULAR_FILE, blob);
        }
        var root = new TreeFormatter();
        root.append("pages", FileMode.TREE, ins.insert(pages));
        root.append("zz-hot.txt", FileMode.REGULAR_FILE, ins.insert(Constants.OBJ_BLOB, utf8("version " + HISTORY + "\n")));
        return ins.insert(root);
    }
}
