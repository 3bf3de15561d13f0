package dev.quaestor.provider.filesystem;

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
    FilesystemProvider provider;
    final List<String> updated = new CopyOnWriteArrayList<>();
    final AtomicInteger listChanges = new AtomicInteger();
    final ResourceChangeListener listener = new ResourceChangeListener() {
        @Override
        public void updated(CanonicalUri uri) {
            updated.add(uri.toString());
        }

        @Override
        public void listChanged() {
            listChanges.incrementAndGet();
        }
    };

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
        Wait.until("the update of a/new/fresh.md and a list change", Duration.ofSeconds(10),
                () -> updated.contains("file:///docs/a/new/fresh.md") && listChanges.get() >= 1);

        int before = listChanges.get();
        Files.delete(root.resolve("a/new/fresh.md"));
        Wait.until("the list change of the deletion", Duration.ofSeconds(10), () -> listChanges.get() > before);

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
