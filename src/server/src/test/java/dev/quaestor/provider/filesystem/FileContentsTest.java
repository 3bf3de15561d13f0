package dev.quaestor.provider.filesystem;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The filesystem provider's content cache: held bytes only while a stat says the file is as it was. */
class FileContentsTest {

    private static final String URI = "file:///docs/note.txt";

    @TempDir
    Path root;
    Path file;
    /** The server's clock as the cache sees it: an hour ahead makes every file older than the racy window. */
    final AtomicLong clock = new AtomicLong();

    @BeforeEach
    void setUp() throws Exception {
        file = root.resolve("note.txt");
        Files.writeString(file, "aaaa");
    }

    private FilesystemProvider provider(String cacheBytes) {
        var prefix = UriCanonicalizer.canonicalize("file:///docs/");
        var settings = cacheBytes == null ? Map.of("root", root.toString())
                : Map.of("root", root.toString(), "content-cache", cacheBytes);
        return new FilesystemProvider(new Mount("docs", "filesystem", prefix, "file:///docs/", settings), clock::get);
    }

    private ResourceContent read(FilesystemProvider p) {
        return p.read(UriCanonicalizer.canonicalize(URI));
    }

    private void later() {
        clock.set(System.currentTimeMillis() + 3_600_000);
    }

    private void now() {
        clock.set(System.currentTimeMillis());
    }

    @Test
    void anUnchangedFileOlderThanTheRacyWindowIsServedFromTheBytesHeld() {
        later();
        var p = provider(null);
        ResourceContent first = read(p);
        ResourceContent second = read(p);
        assertArrayEquals("aaaa".getBytes(StandardCharsets.UTF_8), second.bytes());
        assertSame(first.bytes(), second.bytes(), "the second read serves the bytes held, without reading the file");
        assertEquals(first.entry().mimeType(), second.entry().mimeType());
        assertEquals(first.text(), second.text());
    }

    @Test
    void aFileChangedWithinTheRacyWindowIsReadEveryTimeAndItsChangeServed() throws Exception {
        now();
        var p = provider(null);
        FileTime modified = Files.getLastModifiedTime(file);
        ResourceContent first = read(p);
        // The same size, and the modification time put back: as a write within one tick of a coarse clock leaves it.
        Files.writeString(file, "bbbb");
        Files.setLastModifiedTime(file, modified);
        ResourceContent second = read(p);
        assertArrayEquals("bbbb".getBytes(StandardCharsets.UTF_8), second.bytes());
        assertNotSame(first.bytes(), second.bytes());
        assertNotSame(second.bytes(), read(p).bytes(), "a file touched within the window is not held");
    }

    @Test
    void aHeldFileChangedToTheSameSizeWithItsModificationTimeKeptIsReadAgain() throws Exception {
        later();
        var p = provider(null);
        FileTime modified = Files.getLastModifiedTime(file);
        ResourceContent first = read(p);
        assertSame(first.bytes(), read(p).bytes(), "held");
        // The change time moves on every write, and cannot be set back; past one tick of the kernel's coarse clock.
        Thread.sleep(50);
        Files.writeString(file, "bbbb");
        Files.setLastModifiedTime(file, modified);
        assertEquals(modified, Files.getLastModifiedTime(file));
        assertEquals(4, Files.size(file));
        ResourceContent changed = read(p);
        assertArrayEquals("bbbb".getBytes(StandardCharsets.UTF_8), changed.bytes());
        assertNotSame(first.bytes(), changed.bytes());
    }

    @Test
    void aHeldFileReplacedByAnotherOfTheSameSizeAndTimesIsReadAgain() throws Exception {
        later();
        var p = provider(null);
        ResourceContent first = read(p);
        Path other = root.resolve("other.tmp");
        Files.writeString(other, "cccc");
        Files.setLastModifiedTime(other, Files.getLastModifiedTime(file));
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        assertArrayEquals("cccc".getBytes(StandardCharsets.UTF_8), read(p).bytes());
        assertNotSame(first.bytes(), read(p).bytes());
    }

    @Test
    void aCacheOfNoBytesHoldsNothing() {
        later();
        var p = provider("0");
        assertNotSame(read(p).bytes(), read(p).bytes());
    }

    @Test
    void aFileLargerThanTheCacheTakesIsReadEveryTime() throws Exception {
        later();
        Files.write(file, new byte[FileContents.MAX_FILE_BYTES + 1]);
        var p = provider(null);
        assertNotSame(read(p).bytes(), read(p).bytes());
    }
}
