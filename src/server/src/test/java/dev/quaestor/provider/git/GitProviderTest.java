package dev.quaestor.provider.git;

import static dev.quaestor.provider.git.GitFixture.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceChangeListener;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.support.Wait;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The git provider against real repositories written with JGit in a temporary directory. */
class GitProviderTest {

    static final Instant T1 = Instant.parse("2026-01-10T09:00:00Z");
    static final Instant T2 = Instant.parse("2026-02-20T10:30:00Z");
    static final Instant T3 = Instant.parse("2026-03-30T12:00:00Z");
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff, 0, 0, 7};

    @TempDir
    Path dir;

    Repository repo;
    ObjectId first;
    ObjectId second;
    final List<ResourceProvider> open = new ArrayList<>();

    @BeforeEach
    void repository() throws Exception {
        // A working copy (non-bare): the provider must use its .git and ignore the files on disk.
        repo = Git.init().setDirectory(dir.resolve("handbook").toFile()).setInitialBranch("main").call().getRepository();
        Files.writeString(dir.resolve("handbook/README.md"), "working tree, never served");
        var files = handbook("# Handbook v1\n");
        first = GitFixture.commit(repo, "main", files, T1);
        files.put("README.md", utf8("# Handbook v2\n"));
        second = GitFixture.commit(repo, "main", files, T2);
        GitFixture.tag(repo, "v1", first);
        var release = new HashMap<>(files);
        release.put("RELEASE.txt", utf8("release notes\n"));
        GitFixture.commit(repo, "release/2.x", release, T3);
    }

    /** The handbook's seven files (path -> bytes), with this README; a commit of exactly these. */
    static Map<String, byte[]> handbook(String readme) {
        var files = new LinkedHashMap<String, byte[]>();
        files.put("README.md", utf8(readme));
        files.put("docs/guide.md", utf8("guide\n"));
        files.put("img/logo.png", PNG);
        for (int i = 1; i <= 4; i++) {
            files.put("policies/p" + i + ".yaml", utf8("rule: " + i + "\n"));
        }
        return files;
    }

    @AfterEach
    void close() {
        open.forEach(ResourceProvider::close);
        repo.close();
    }

    ResourceProvider provider(Map<String, String> options) {
        var settings = new HashMap<>(options);
        settings.put("repository", dir.resolve("handbook").toString());
        settings.putIfAbsent("max-bytes", "1000");
        var p = new GitProviderFactory().create(new Mount("handbook", "git",
                UriCanonicalizer.canonicalize("git://handbook/"), "git://handbook/", settings));
        open.add(p);
        return p;
    }

    static CanonicalUri uri(String s) {
        return UriCanonicalizer.canonicalize(s);
    }

    static String text(ResourceContent c) {
        assertTrue(c.text(), "served as text");
        return new String(c.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aPageSeeksToItsCursorAndListsEveryPathOnceInTreeOrder() throws Exception {
        var files = new LinkedHashMap<String, byte[]>();
        // Names that sort differently as paths and as tree entries ("a.txt" before "a/", "a/" before "ab").
        for (String path : List.of("a.txt", "a/b/c.txt", "a/b.txt", "a/x.txt", "ab/y.txt", "a-z.txt", "b.txt",
                "deep/1/2/3/4/leaf.txt", "deep/1/2/sibling.txt", "z.txt")) {
            files.put(path, utf8(path));
        }
        GitFixture.commit(repo, "seek", files, T3);
        var p = provider(Map.of("list-refs", "seek"));
        var whole = p.list(null, 100).items().stream().map(e -> e.uri().toString()).toList();
        assertEquals(files.size(), whole.size(), whole.toString());
        var paged = new ArrayList<String>();
        String cursor = null;
        do {
            var page = p.list(cursor, 1);
            page.items().forEach(e -> paged.add(e.uri().toString()));
            cursor = page.nextCursor();
        } while (cursor != null && paged.size() <= files.size());
        assertEquals(whole, paged, "a page of one from each cursor lists what one page of all lists, in its order");
    }

    @Test
    void listsTheDefaultBranchInPagesWithOpaqueCursors() {
        var p = provider(Map.of());
        var seen = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = p.list(cursor, 3);
            assertTrue(page.items().size() <= 3);
            page.items().forEach(e -> seen.add(e.uri().toString()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null && pages < 20);
        assertEquals(List.of("git://handbook/main/README.md", "git://handbook/main/docs/guide.md",
                "git://handbook/main/img/logo.png", "git://handbook/main/policies/p1.yaml",
                "git://handbook/main/policies/p2.yaml", "git://handbook/main/policies/p3.yaml",
                "git://handbook/main/policies/p4.yaml"), seen);
        assertEquals(3, pages);
        assertThrows(InvalidCursorException.class, () -> p.list("not-a-cursor!", 3));
        assertThrows(InvalidCursorException.class, () -> p.list(
                java.util.Base64.getUrlEncoder().encodeToString(utf8("g1\u0000other\u0000README.md")), 3));
    }

    @Test
    void listEntriesCarryMetadataWithLastModifiedFromTheCommitThatTouchedThePath() {
        var p = provider(Map.of());
        Map<String, ResourceEntry> byUri = new HashMap<>();
        p.list(null, 100).items().forEach(e -> byUri.put(e.uri().toString(), e));
        ResourceEntry readme = byUri.get("git://handbook/main/README.md");
        assertEquals(T2, readme.lastModified());
        assertEquals("text/markdown", readme.mimeType());
        assertEquals(14L, readme.size());
        ResourceEntry guide = byUri.get("git://handbook/main/docs/guide.md");
        assertEquals(T1, guide.lastModified(), "unchanged since the first commit");
        assertEquals("image/png", byUri.get("git://handbook/main/img/logo.png").mimeType());
    }

    @Test
    void listsSeveralRefsWhenConfigured() {
        var p = provider(Map.of("list-refs", "v1, release/2.x"));
        var uris = p.list(null, 100).items().stream().map(e -> e.uri().toString()).toList();
        assertTrue(uris.contains("git://handbook/v1/README.md"));
        assertTrue(uris.contains("git://handbook/release:2.x/RELEASE.txt"));
        assertFalse(uris.stream().anyMatch(u -> u.startsWith("git://handbook/main/")));
    }

    @Test
    void readsTextAndBinaryAtBranchTagAndCommit() {
        var p = provider(Map.of());
        assertEquals("# Handbook v2\n", text(p.read(uri("git://handbook/main/README.md"))));
        assertEquals("# Handbook v1\n", text(p.read(uri("git://handbook/v1/README.md"))));
        assertEquals("# Handbook v1\n", text(provider(Map.of("commit-ids", "true"))
                .read(uri("git://handbook/" + first.name() + "/README.md"))));
        assertEquals("release notes\n", text(p.read(uri("git://handbook/release:2.x/RELEASE.txt"))));
        ResourceContent png = p.read(uri("git://handbook/main/img/logo.png"));
        assertFalse(png.text(), "binary goes out as a blob");
        assertArrayEquals(PNG, png.bytes());
        assertEquals("image/png", png.entry().mimeType());
        assertEquals(T1, png.entry().lastModified());
    }

    @Test
    void templateExpandsToReadableUrisAndMatchesThemBack() {
        var p = provider(Map.of());
        assertEquals(1, p.templates().size());
        var t = UriTemplate.parse(p.templates().get(0).uriTemplate());
        assertEquals("git://handbook/{ref}/{+path}", t.text());
        String expanded = t.expand(Map.of("ref", "release:2.x", "path", "docs/guide.md"));
        assertEquals("guide\n", text(p.read(uri(expanded))));
        assertEquals(Map.of("ref", "release:2.x", "path", "docs/guide.md"), t.match(uri(expanded)).orElseThrow());
    }

    @Test
    void absentThingsAreNotFound() {
        var p = provider(Map.of());
        for (String u : List.of("git://handbook/main/nope.md", "git://handbook/nope/README.md",
                "git://handbook/main/docs", "git://handbook/main", "git://handbook",
                "git://handbook/" + first.name().substring(0, 12) + "/README.md",
                "git://handbook/" + first.name().toUpperCase() + "/README.md",
                "git://handbook/release/2.x/RELEASE.txt", "git://handbook/main~1/README.md",
                "git://handbook/HEAD/README.md", "git://handbook/refs:heads:main/README.md",
                "git://handbook/v1/RELEASE.txt", "git://other/main/README.md")) {
            assertThrows(ResourceNotFoundException.class, () -> p.read(uri(u)), u);
        }
    }

    /**
     * Without {@code options.commit-ids}, a file is served under its branches and tags only: not under the id of a
     * commit that holds it, a URI a rule written for the branch would not name.
     */
    @Test
    void commitIdsAreNotServedUnlessTheMountAllowsThem() {
        var p = provider(Map.of());
        assertEquals("# Handbook v1\n", text(p.read(uri("git://handbook/v1/README.md"))));
        assertThrows(ResourceNotFoundException.class, () -> p.read(uri("git://handbook/" + first.name() + "/README.md")));
    }

    @Test
    void aCommitNoRefReachesIsNotServed() throws Exception {
        ObjectId dangling = GitFixture.danglingCommit(repo, Map.of("secret.txt", utf8("force-pushed away")), T3);
        var p = provider(Map.of("commit-ids", "true"));
        assertThrows(ResourceNotFoundException.class,
                () -> p.read(uri("git://handbook/" + dangling.name() + "/secret.txt")));
        GitFixture.tag(repo, "published", dangling);
        assertEquals("force-pushed away", text(p.read(uri("git://handbook/" + dangling.name() + "/secret.txt"))));
    }

    @Test
    void sizeLimitIsCheckedBeforeLoading() throws Exception {
        GitFixture.commit(repo, "big", Map.of("big.bin", new byte[5000]), T3);
        var p = provider(Map.of());
        var e = assertThrows(ContentTooLargeException.class, () -> p.read(uri("git://handbook/big/big.bin")));
        assertEquals(1000, e.maxBytes());
    }

    @Test
    void largeBlobsAreStreamedNotLoaded() throws Exception {
        byte[] big = new byte[3 * 1024 * 1024 + 7];
        new java.util.Random(6).nextBytes(big);
        String text = "line \"quoted\" é 漢\n".repeat(150_000);
        GitFixture.commit(repo, "large", Map.of("blob.bin", big, "notes.txt", utf8(text)), T3);
        var p = provider(Map.of("max-bytes", Integer.toString(10 * 1024 * 1024)));
        ResourceContent blob = p.read(uri("git://handbook/large/blob.bin"));
        assertFalse(blob.inMemory(), "a blob over the in-memory limit is streamed");
        assertFalse(blob.text());
        assertEquals(big.length, blob.length());
        try (var in = blob.open()) {
            assertArrayEquals(big, in.readAllBytes());
        }
        ResourceContent notes = p.read(uri("git://handbook/large/notes.txt"));
        assertFalse(notes.inMemory());
        assertTrue(notes.text(), "judged text by its first bytes");
        try (var in = notes.open()) {
            assertEquals(text, new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
        var e = assertThrows(ContentTooLargeException.class,
                () -> provider(Map.of("max-bytes", "1048576")).read(uri("git://handbook/large/blob.bin")));
        assertEquals(big.length, e.size());
    }

    @Test
    void pathTricksNeverEscapeTheTreeAtTheRef() throws Exception {
        // A tree no git command would write: entries named .git, .GIT and .. hold bytes that must never be served.
        GitFixture.commitRawTree(repo, "evil", Map.of(".git", utf8("tree-level .git"), ".GIT", utf8("upper"),
                "..", utf8("dotdot"), "ok.txt", utf8("fine")), T3);
        GitFixture.commit(repo, "links", Map.of("link", utf8("../../../../etc/passwd"), "a.txt", utf8("a")),
                Map.of("link", GitFixture.SYMLINK), T3);
        var p = provider(Map.of("list-refs", "evil,links"));
        var listed = p.list(null, 100).items().stream().map(e -> e.uri().toString()).toList();
        assertEquals(List.of("git://handbook/evil/ok.txt", "git://handbook/links/a.txt"), listed);

        List<String> hostile = List.of(
                "git://handbook/main/../../../etc/passwd", "git://handbook/main/..%2F..%2Fetc%2Fpasswd",
                "git://handbook/main/docs%2Fguide.md", "git://handbook/main/docs%5Cguide.md",
                "git://handbook/main/README.md%00.png", "git://handbook/main/%2e%2e/%2e%2e/config",
                "git://handbook/main/.git/config", "git://handbook/main/.git/HEAD", "git://handbook/.git/config",
                "git://handbook/main/.GIT/config", "git://handbook/main/.git./config",
                "git://handbook/a:..:..:config/x", "git://handbook/..:..:HEAD/x", "git://handbook/main:..:v1/README.md",
                "git://handbook/evil/.git", "git://handbook/evil/.GIT", "git://handbook/links/link",
                "git://handbook/main/docs/../../evil/ok.txt");
        for (String u : hostile) {
            CanonicalUri c;
            try {
                c = UriCanonicalizer.canonicalize(u);
            } catch (InvalidUriException e) {
                continue; // refused before any provider sees it
            }
            try {
                ResourceContent served = p.read(c);
                if (!u.equals("git://handbook/main/docs/../../evil/ok.txt")) {
                    fail(u + " served " + new String(served.bytes()));
                }
            } catch (ResourceNotFoundException expected) {
                // the only acceptable outcome
            }
        }
        // Segments the canonicaliser would never produce, given to the provider directly.
        for (List<String> segs : List.of(List.of("main", "..", "README.md"), List.of("evil", ".."),
                List.of("main", "docs/guide.md"), List.of("main", "docs\\guide.md"), List.of("main", "README.md\0"),
                List.of("evil", ".git"), List.of("evil", ".Git "), List.of("main", ""), List.of("", "README.md"),
                List.of("..", "README.md"), List.of("main", "."), List.of("a:..:..:config", "x"))) {
            var c = new CanonicalUri("git", "handbook", segs);
            assertThrows(ResourceNotFoundException.class, () -> p.read(c), segs.toString());
        }
    }

    @Test
    void aMovingRefProducesChangeEvents() throws Exception {
        var p = provider(Map.of("poll-interval", "50ms"));
        assertTrue(p.emitsChanges());
        var updated = new CopyOnWriteArrayList<String>();
        var entries = new CopyOnWriteArrayList<String>();
        var mountWide = new java.util.concurrent.atomic.AtomicInteger();
        var reg = p.addChangeListener(new ResourceChangeListener() {
            @Override
            public void updated(CanonicalUri uri) {
                updated.add(uri.toString());
            }

            @Override
            public void listChanged(CanonicalUri entry) {
                entries.add(entry.toString());
            }

            @Override
            public void listChanged() {
                mountWide.incrementAndGet();
            }
        });
        var files = handbook("# Handbook v3\n");
        GitFixture.commit(repo, "main", files, T3);
        Wait.until("README.md's update", Duration.ofSeconds(10), Duration.ofMillis(25),
                () -> updated.contains("git://handbook/main/README.md"));
        assertFalse(updated.contains("git://handbook/main/docs/guide.md"), "unchanged paths get no event");
        assertEquals(List.of(), entries, "no path added or removed");

        files.put("docs/new.md", utf8("new\n"));
        GitFixture.commit(repo, "main", files, T3.plusSeconds(60));
        Wait.until("docs/new.md's update and a list change", Duration.ofSeconds(10), Duration.ofMillis(25),
                () -> entries.contains("git://handbook/main/docs/new.md") && updated.contains("git://handbook/main/docs/new.md"));
        assertEquals(List.of("git://handbook/main/docs/new.md"), entries, "the list change names the path added");

        entries.clear();
        GitFixture.commit(repo, "feature/x", files, T3);
        Wait.until("the new branch's list change", Duration.ofSeconds(10), Duration.ofMillis(25),
                () -> entries.size() == files.size());
        assertTrue(entries.stream().allMatch(e -> e.startsWith("git://handbook/feature") && !e.startsWith("git://handbook/main/")),
                "a new branch names each of its paths: " + entries);
        assertTrue(entries.stream().anyMatch(e -> e.endsWith("/docs/new.md")), entries.toString());
        assertEquals(0, mountWide.get(), "every change was named");

        reg.close();
        updated.clear();
        files.put("README.md", utf8("# after close\n"));
        GitFixture.commit(repo, "main", files, T3.plusSeconds(120));
        // A listener that arrives afterwards is told of the next move: once it has been, a poll has compared the
        // refs since both commits, and the registration closed before them must have heard nothing.
        var later = new CopyOnWriteArrayList<String>();
        try (var next = p.addChangeListener(new ResourceChangeListener() {
            @Override
            public void updated(CanonicalUri uri) {
                later.add(uri.toString());
            }

            @Override
            public void listChanged() {
            }
        })) {
            files.put("README.md", utf8("# after the next listener came\n"));
            GitFixture.commit(repo, "main", files, T3.plusSeconds(180));
            Wait.until("the later listener's update", Duration.ofSeconds(10), Duration.ofMillis(25),
                    () -> later.contains("git://handbook/main/README.md"));
        }
        assertTrue(updated.isEmpty(), "no events after the registration is closed");
    }

    @Test
    void aChangeTooLargeToNameIsOneMountWideEventAndNothingElse() throws Exception {
        var p = provider(Map.of("poll-interval", "50ms"));
        var updated = new java.util.concurrent.atomic.AtomicInteger();
        var entries = new java.util.concurrent.atomic.AtomicInteger();
        var mountWide = new java.util.concurrent.atomic.AtomicInteger();
        try (var reg = p.addChangeListener(new ResourceChangeListener() {
            @Override
            public void updated(CanonicalUri uri) {
                updated.incrementAndGet();
            }

            @Override
            public void listChanged(CanonicalUri entry) {
                entries.incrementAndGet();
            }

            @Override
            public void listChanged() {
                mountWide.incrementAndGet();
            }
        })) {
            int limit = RefWatcher.MAX_PATH_EVENTS;
            var files = handbook("# Handbook v3\n");
            for (int i = 1; i < limit; i++) {
                files.put(String.format("bulk/f%05d.md", i), utf8("one\n"));
            }
            // Exactly the limit (README.md changed, limit - 1 paths added): every path is named.
            GitFixture.commit(repo, "main", files, T3);
            Wait.until("every path named", Duration.ofSeconds(30), Duration.ofMillis(25), () -> updated.get() == limit);
            Thread.sleep(200); // a further poll, which must add nothing
            assertEquals(limit, updated.get());
            assertEquals(limit - 1, entries.get(), "each path added is named; README.md was there before");
            assertEquals(0, mountWide.get(), "a change of exactly the limit is named path by path");

            // One path over the limit (the limit - 1 bulk files changed, two added): one mount-wide event, no path named.
            updated.set(0);
            entries.set(0);
            files.replaceAll((path, bytes) -> path.startsWith("bulk/") ? utf8("two\n") : bytes);
            files.put("bulk/extra-1.md", utf8("extra\n"));
            files.put("bulk/extra-2.md", utf8("extra\n"));
            GitFixture.commit(repo, "main", files, T3.plusSeconds(60));
            Wait.until("the mount-wide change", Duration.ofSeconds(30), Duration.ofMillis(25), () -> mountWide.get() > 0);
            Thread.sleep(200);
            assertEquals(1, mountWide.get());
            assertEquals(0, updated.get(), "a change too large to name names no path: the mount-wide event stands for all");
            assertEquals(0, entries.get());
        }
    }

    @Test
    void fetchesFromARemoteAsAMirror() throws Exception {
        Path mirror = dir.resolve("mirror.git");
        Git.cloneRepository().setBare(true).setURI(dir.resolve("handbook").toUri().toString())
                .setDirectory(mirror.toFile()).call().close();
        var settings = new HashMap<String, String>();
        settings.put("repository", mirror.toString());
        settings.put("max-bytes", "1000");
        settings.put("remote", dir.resolve("handbook").toString());
        settings.put("fetch-interval", "100ms");
        var p = new GitProviderFactory().create(new Mount("handbook", "git", uri("git://handbook/"), "git://handbook/", settings));
        open.add(p);
        assertEquals("# Handbook v2\n", text(p.read(uri("git://handbook/main/README.md"))));
        GitFixture.commit(repo, "main", Map.of("README.md", utf8("# fetched\n")), T3);
        Wait.until("the fetched README.md", Duration.ofSeconds(10), Duration.ofMillis(25), () -> {
            try {
                return text(p.read(uri("git://handbook/main/README.md"))).equals("# fetched\n");
            } catch (RuntimeException e) {
                return false;
            }
        });
    }

    @Test
    void badSettingsAreRefusedWithAClearMessage() {
        var e = assertThrows(IllegalArgumentException.class, () -> provider(Map.of("remote", "ssh://git@example.org/x.git")));
        assertTrue(e.getMessage().contains("only http, https and file"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GitProviderFactory().create(new Mount("h", "git",
                uri("git://h/"), "git://h/", Map.of("repository", dir.resolve("nothing").toString()))));
        assertTrue(e.getMessage().contains("is not a git repository"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GitProviderFactory().create(new Mount("h", "git",
                uri("git://h/sub/"), "git://h/sub/", Map.of("repository", dir.resolve("handbook").toString()))));
        assertTrue(e.getMessage().contains("no path"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> provider(Map.of("poll-interval", "soon")));
        assertTrue(e.getMessage().contains("options.poll-interval=soon"), e.getMessage());
    }
}
