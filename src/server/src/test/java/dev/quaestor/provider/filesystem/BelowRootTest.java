package dev.quaestor.provider.filesystem;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A path checked to be below the root, then changed before the open: a folder on it replaced by a link to a folder
 * outside (which holds a file of the same name), or the file itself replaced by a link. The open and the attributes
 * must fail as absent, never reach the outside file.
 */
class BelowRootTest {

    @TempDir
    Path tmp;
    Path root;
    Path real;

    @BeforeEach
    void setUp() throws Exception {
        root = Files.createDirectories(tmp.resolve("root")).toRealPath();
        Files.createDirectories(root.resolve("pub/d"));
        Files.writeString(root.resolve("pub/d/passwd"), "inside");
        Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(tmp.resolve("outside/passwd"), "OUTSIDE-SECRET");
        real = root.resolve("pub/d/passwd").toRealPath(); // the check
    }

    @Test
    void opensWhatWasCheckedWhenNothingChanged() throws Exception {
        try (var in = BelowRoot.stream(root, real)) {
            assertArrayEquals("inside".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
        }
        assertEquals(6, BelowRoot.attributes(root, real).size());
    }

    @Test
    void aFolderSwappedForALinkAfterTheCheckIsNotFollowed() throws Exception {
        Files.move(root.resolve("pub/d"), root.resolve("pub/d-old"), StandardCopyOption.ATOMIC_MOVE);
        Files.createSymbolicLink(root.resolve("pub/d"), tmp.resolve("outside"));
        // An open by path now reads the outside file: what the walk must not do.
        assertEquals("OUTSIDE-SECRET", Files.readString(real));
        assertThrows(NoSuchFileException.class, () -> BelowRoot.open(root, real));
        assertThrows(NoSuchFileException.class, () -> BelowRoot.attributes(root, real));
    }

    @Test
    void theFileSwappedForALinkAfterTheCheckIsNotFollowed() throws Exception {
        Files.delete(real);
        Files.createSymbolicLink(real, tmp.resolve("outside/passwd"));
        assertThrows(NoSuchFileException.class, () -> BelowRoot.open(root, real));
    }

    @Test
    void aFolderSwappedForAFileIsAbsent() throws Exception {
        Files.move(root.resolve("pub/d"), root.resolve("pub/d-old"), StandardCopyOption.ATOMIC_MOVE);
        Files.writeString(root.resolve("pub/d"), "a file where a folder was");
        assertThrows(NoSuchFileException.class, () -> BelowRoot.open(root, real));
    }

    @Test
    void aPathNotBelowTheRootIsRefused() {
        assertThrows(java.nio.file.FileSystemException.class, () -> BelowRoot.open(root, tmp.resolve("outside/passwd")));
    }
}
