package dev.quaestor.provider.filesystem;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilesystemProviderTest {

    @TempDir
    Path tmp;
    Path root;
    FilesystemProvider provider;

    @BeforeEach
    void setUp() throws Exception {
        root = Files.createDirectories(tmp.resolve("root"));
        Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(tmp.resolve("outside/secret.txt"), "outside secret");
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/note.txt"), "hello");
        Files.write(root.resolve("a/data.bin"), new byte[] {0, 1, 2, (byte) 0xff});
        Files.writeString(root.resolve(".hidden"), "hidden");
        Files.createSymbolicLink(root.resolve("escape.txt"), tmp.resolve("outside/secret.txt"));
        Files.createSymbolicLink(root.resolve("escape-dir"), tmp.resolve("outside"));
        Files.createSymbolicLink(root.resolve("inside-link.txt"), root.resolve("a/b/note.txt"));
        var prefix = UriCanonicalizer.canonicalize("file:///docs/");
        provider = new FilesystemProvider(new Mount("docs", "filesystem", prefix, "file:///docs/",
                Map.of("root", root.toString(), "max-bytes", "1000")));
    }

    private byte[] read(String uri) {
        return provider.read(UriCanonicalizer.canonicalize(uri)).bytes();
    }

    @Test
    void readsFilesWithTypes() {
        var text = provider.read(UriCanonicalizer.canonicalize("file:///docs/a/b/note.txt"));
        assertTrue(text.text());
        assertEquals("text/plain", text.entry().mimeType());
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), text.bytes());
        var bin = provider.read(UriCanonicalizer.canonicalize("file:///docs/a/data.bin"));
        assertFalse(bin.text());
        assertEquals("application/octet-stream", bin.entry().mimeType());
    }

    @Test
    void symlinksOutOfTheRootAreAbsent() {
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/escape.txt"));
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/escape-dir/secret.txt"));
    }

    @Test
    void symlinksInsideTheRootAreAbsentUnlessFollowed() {
        // A link would serve a.b/note.txt's bytes under another URI, one the policy judged differently.
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/inside-link.txt"));
        var following = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "follow-symlinks", "true")));
        assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8),
                following.read(UriCanonicalizer.canonicalize("file:///docs/inside-link.txt")).bytes());
        assertThrows(ResourceNotFoundException.class,
                () -> following.read(UriCanonicalizer.canonicalize("file:///docs/escape.txt")));
    }

    /**
     * Someone who can write below the root swaps a folder with a link to a folder outside, over and over, while a
     * reader reads a file under it: the outside file's bytes are never served (small and large files).
     */
    @Test
    void aFolderSwappedForALinkWhileReadingNeverServesTheOutside() throws Exception {
        var bigInside = new byte[FilesystemProvider.IN_MEMORY_LIMIT + 10];
        java.util.Arrays.fill(bigInside, (byte) 'i');
        var bigOutside = new byte[bigInside.length];
        java.util.Arrays.fill(bigOutside, (byte) 'O');
        Files.createDirectories(root.resolve("pub/d"));
        Files.writeString(root.resolve("pub/d/passwd"), "inside");
        Files.write(root.resolve("pub/d/big.bin"), bigInside);
        Files.writeString(tmp.resolve("outside/passwd"), "OUTSIDE-SECRET");
        Files.write(tmp.resolve("outside/big.bin"), bigOutside);
        var large = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString())));
        var stop = new java.util.concurrent.atomic.AtomicBoolean();
        var swapper = new Thread(() -> {
            Path d = root.resolve("pub/d");
            Path kept = root.resolve("pub/d-real");
            Path link = root.resolve("pub/d-link");
            try {
                Files.createSymbolicLink(link, tmp.resolve("outside"));
                while (!stop.get()) {
                    Files.move(d, kept, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, d, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    Files.move(d, link, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    Files.move(kept, d, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        swapper.start();
        int served = 0;
        try {
            long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < end) {
                for (String name : new String[] {"passwd", "big.bin"}) {
                    try {
                        var content = large.read(UriCanonicalizer.canonicalize("file:///docs/pub/d/" + name));
                        byte[] bytes;
                        try (var in = content.open()) {
                            bytes = in.readAllBytes();
                        }
                        assertTrue(bytes.length > 0 && (bytes[0] == 'i'), "served bytes from outside the root: "
                                + new String(bytes, 0, Math.min(20, bytes.length), StandardCharsets.UTF_8));
                        served++;
                    } catch (ResourceNotFoundException | java.io.UncheckedIOException | java.io.IOException absent) {
                        // the swap was caught: absent
                    }
                }
            }
        } finally {
            stop.set(true);
            swapper.join();
        }
        assertTrue(served > 0, "some reads found the folder in place");
    }

    @Test
    void hiddenFilesDirectoriesAndTheRootAreAbsent() {
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/.hidden"));
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/a"));
        assertThrows(ResourceNotFoundException.class, () -> read("file:///docs"));
        assertThrows(ResourceNotFoundException.class, () -> read("file:///elsewhere/a/b/note.txt"));
    }

    @Test
    void aNamedPipeIsAbsentAndNeverOpened() throws Exception {
        // Opening a FIFO with no writer blocks: the read must refuse it from its stat, before any open.
        Path fifo = root.resolve("a/pipe.txt");
        var mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mkfifo.waitFor());
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo));
        var reading = java.util.concurrent.CompletableFuture.runAsync(
                () -> assertThrows(ResourceNotFoundException.class, () -> read("file:///docs/a/pipe.txt")));
        reading.get(5, java.util.concurrent.TimeUnit.SECONDS); // fails on a wrong answer, times out on a hung open
    }

    @Test
    void oversizedFilesAreRefused() throws Exception {
        Files.write(root.resolve("big.txt"), new byte[2000]);
        assertThrows(ContentTooLargeException.class, () -> read("file:///docs/big.txt"));
    }

    @Test
    void largeFilesAreStreamedAndJudgedTextByTheirFirstBytes() throws Exception {
        byte[] big = new byte[FilesystemProvider.IN_MEMORY_LIMIT + 5];
        new java.util.Random(3).nextBytes(big);
        Files.write(root.resolve("big.dat"), big);
        // A cut-off UTF-8 character where the sniffed head ends must not make text look binary.
        Files.writeString(root.resolve("big.md"), "é".repeat(FilesystemProvider.IN_MEMORY_LIMIT));
        var large = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "max-bytes", Integer.toString(4 * 1024 * 1024))));
        var blob = large.read(UriCanonicalizer.canonicalize("file:///docs/big.dat"));
        assertFalse(blob.inMemory());
        assertFalse(blob.text());
        assertEquals(big.length, blob.length());
        try (var in = blob.open()) {
            assertArrayEquals(big, in.readAllBytes());
        }
        var md = large.read(UriCanonicalizer.canonicalize("file:///docs/big.md"));
        assertFalse(md.inMemory());
        assertTrue(md.text());
        var refused = assertThrows(ContentTooLargeException.class, () -> read("file:///docs/big.dat"));
        assertEquals(big.length, refused.size());
        assertEquals(1000, refused.maxBytes());
    }

    /**
     * A file small at its stat grows past the in-memory limit before it is read: it is served whole, streamed, never as
     * its first {@code IN_MEMORY_LIMIT + 1} bytes passed off as all of it.
     */
    @Test
    void aSmallFileThatGrowsPastTheInMemoryLimitBeforeItsReadIsServedWhole() throws Exception {
        Path file = root.resolve("growing.log");
        Files.writeString(file, "first line\n");
        byte[] grown = new byte[FilesystemProvider.IN_MEMORY_LIMIT + 4096];
        java.util.Arrays.fill(grown, (byte) 'x');
        var large = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "max-bytes", Integer.toString(4 * 1024 * 1024))));
        large.afterStat = () -> {
            try {
                Files.write(file, grown);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        var content = large.read(UriCanonicalizer.canonicalize("file:///docs/growing.log"));
        byte[] served;
        try (var in = content.open()) {
            served = in.readAllBytes();
        }
        assertEquals(grown.length, served.length, "served a cut-off read as complete");
        assertArrayEquals(grown, served);
        assertFalse(content.inMemory());
        assertTrue(content.text());
    }

    /** The same, past the mount's max-bytes: refused as too large, with the size it has now. */
    @Test
    void aSmallFileThatGrowsPastMaxBytesBeforeItsReadIsRefused() throws Exception {
        Path file = root.resolve("growing.log");
        Files.writeString(file, "first line\n");
        int limit = FilesystemProvider.IN_MEMORY_LIMIT + 1024;
        var bounded = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "max-bytes", Integer.toString(limit))));
        bounded.afterStat = () -> {
            try {
                Files.write(file, new byte[limit + 10]);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        var refused = assertThrows(ContentTooLargeException.class,
                () -> bounded.read(UriCanonicalizer.canonicalize("file:///docs/growing.log")));
        assertEquals(limit + 10, refused.size());
    }

    @Test
    void listingPagesOverVisibleFilesOnly() {
        var seen = new ArrayList<String>();
        String cursor = null;
        do {
            var page = provider.list(cursor, 1);
            page.items().stream().map(ResourceEntry::uri).map(Object::toString).forEach(seen::add);
            cursor = page.nextCursor();
        } while (cursor != null);
        assertEquals(java.util.List.of("file:///docs/a/b/note.txt", "file:///docs/a/data.bin"), seen);
    }

    /**
     * A name no canonical URI can carry (decomposed Unicode, as macOS writes it; a trailing dot) is neither listed nor
     * offered: its URI would not be the one the policy judges (a rule on {@code file:///docs/Müller/**}, composed,
     * would not match it), and no read can reach it. The listing logs each such file once, so it is not lost unseen.
     */
    @Test
    void namesNoCanonicalUriCarriesAreNeitherListedNorOffered() throws Exception {
        String decomposed = "Mu\u0308ller";
        Files.createDirectories(root.resolve(decomposed));
        Files.writeString(root.resolve(decomposed).resolve("salary.txt"), "42");
        Files.writeString(root.resolve("a/trailing."), "x");
        var fresh = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "watch", "false")));
        var listed = fresh.list(null, 100).items().stream().map(e -> e.uri().toString()).toList();
        assertEquals(java.util.List.of("file:///docs/a/b/note.txt", "file:///docs/a/data.bin"), listed);
        // Not silently: each file passed over is logged once, and known to the mount.
        assertEquals(java.util.Set.of(decomposed + "/salary.txt", "a/trailing."), fresh.unservable());
        // A name logged cannot forge a log line or turn the line's text around.
        assertEquals("a\\u000A2026 INFO forged\\u202Etxt.exe", FilesystemProvider.loggable("a\n2026 INFO forged\u202Etxt.exe"));
        String template = fresh.templates().get(0).uriTemplate();
        assertEquals(java.util.List.of(), fresh.complete(template, "path", "M", Map.of(), 10));
        assertEquals(java.util.List.of("a/b/", "a/data.bin"), fresh.complete(template, "path", "a/", Map.of(), 10));
        assertEquals(java.util.List.of("a/b/"), fresh.complete(template, "path", "a/", Map.of(), 1), "the first names, in order");
    }
}
