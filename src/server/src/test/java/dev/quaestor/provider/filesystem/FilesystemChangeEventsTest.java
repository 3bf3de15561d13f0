package dev.quaestor.provider.filesystem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceChangeListener;
import dev.quaestor.support.Wait;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File changes become change events through the WatchService, only while a listener is registered. */
class FilesystemChangeEventsTest {

    @TempDir
    Path root;
    @TempDir
    Path outside;
    FilesystemProvider provider;
    final List<String> updated = new CopyOnWriteArrayList<>();
    final List<String> entries = new CopyOnWriteArrayList<>();
    final AtomicInteger mountWide = new AtomicInteger();
    final ResourceChangeListener listener = new ResourceChangeListener() {
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
    };

    private long named(String uri) {
        return entries.stream().filter(uri::equals).count();
    }

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(root.resolve("a"));
        Files.writeString(root.resolve("a/note.txt"), "v1");
        provider = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", Map.of("root", root.toString(), "max-bytes", "1000")));
    }

    @AfterEach
    void tearDown() {
        provider.close();
    }

    @Test
    void modifiedCreatedAndDeletedFilesAreReported() throws Exception {
        assertTrue(provider.emitsChanges());
        var reg = provider.addChangeListener(listener);
        Files.writeString(root.resolve("a/note.txt"), "v2");
        Wait.until("the update of a/note.txt", Duration.ofSeconds(10), () -> updated.contains("file:///docs/a/note.txt"));

        Files.createDirectories(root.resolve("a/new"));
        Files.writeString(root.resolve("a/new/fresh.md"), "fresh");
        Wait.until("the update of a/new/fresh.md and its list change", Duration.ofSeconds(10),
                () -> updated.contains("file:///docs/a/new/fresh.md") && named("file:///docs/a/new/fresh.md") >= 1);
        Thread.sleep(300); // a second naming of the creation (see a/gone below) comes now, not after the deletion
        long fresh = named("file:///docs/a/new/fresh.md");

        Files.delete(root.resolve("a/new/fresh.md"));
        Wait.until("the list change of the deletion, naming the file", Duration.ofSeconds(10),
                () -> named("file:///docs/a/new/fresh.md") > fresh);

        // A folder moved out of the tree names each listed file it took with it.
        Files.createDirectories(root.resolve("a/gone"));
        Files.writeString(root.resolve("a/gone/x.txt"), "x");
        Files.writeString(root.resolve("a/gone/y.txt"), "y");
        // A file written while its new folder's watch is being set up can be named twice (found by the walk of the
        // folder and by the watch): a window's notifications hold each entry once either way.
        Wait.until("the list changes of a/gone's files", Duration.ofSeconds(10),
                () -> named("file:///docs/a/gone/x.txt") >= 1 && named("file:///docs/a/gone/y.txt") >= 1);
        Thread.sleep(300); // any second naming of the creations comes now, not after the move
        long x = named("file:///docs/a/gone/x.txt");
        long y = named("file:///docs/a/gone/y.txt");
        Files.move(root.resolve("a/gone"), outside.resolve("gone"));
        Wait.until("the list changes of the folder's departure, naming its files", Duration.ofSeconds(10),
                () -> named("file:///docs/a/gone/x.txt") > x && named("file:///docs/a/gone/y.txt") > y);
        assertEquals(0, mountWide.get(), "every list change was named");

        Files.writeString(root.resolve(".secret"), "x");
        // A visible change after it: once that is reported, the hidden file's event has been through the watcher.
        updated.clear();
        Files.writeString(root.resolve("a/note.txt"), "v2b");
        Wait.until("the update of a/note.txt after the hidden file", Duration.ofSeconds(10),
                () -> updated.contains("file:///docs/a/note.txt"));
        assertFalse(updated.stream().anyMatch(u -> u.contains(".secret")), "hidden files are not reported");

        reg.close();
        updated.clear();
        Files.writeString(root.resolve("a/note.txt"), "v3");
        // A listener that arrives afterwards is told of the next change: once it has been, that change has been
        // through a watcher, and the registration closed before it must have heard nothing of either.
        List<String> later = new CopyOnWriteArrayList<>();
        try (var next = provider.addChangeListener(new ResourceChangeListener() {
            @Override
            public void updated(CanonicalUri uri) {
                later.add(uri.toString());
            }

            @Override
            public void listChanged() {
            }
        })) {
            Files.writeString(root.resolve("a/note.txt"), "v4");
            Wait.until("the later listener's update", Duration.ofSeconds(10), () -> later.contains("file:///docs/a/note.txt"));
        }
        assertTrue(updated.isEmpty(), "no events after the last listener left");
    }
}
