package dev.quaestor.provider.filesystem;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.support.Wait;
import dev.quaestor.uri.UriCanonicalizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A filesystem listing reads one page from the mount's index, which follows the tree by watcher or by rescans. */
class FileIndexTest {

    @TempDir
    Path tmp;
    private final List<FilesystemProvider> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(FilesystemProvider::close);
    }

    private FilesystemProvider provider(Path root, Map<String, String> options) {
        var settings = new HashMap<>(options);
        settings.put("root", root.toString());
        var p = new FilesystemProvider(new Mount("docs", "filesystem", UriCanonicalizer.canonicalize("file:///docs/"),
                "file:///docs/", settings));
        open.add(p);
        return p;
    }

    private static Path tree(Path root, int files) throws Exception {
        Files.createDirectories(root);
        for (int i = 0; i < files; i++) {
            Path dir = Files.createDirectories(root.resolve(String.format("d%03d", i / 500)));
            Files.writeString(dir.resolve(String.format("f%05d.txt", i)), "x");
        }
        return root;
    }

    /** The median time of 31 runs of {@code call}. */
    private static long medianNanos(Runnable call) {
        long[] samples = new long[31];
        for (int i = 0; i < samples.length; i++) {
            long start = System.nanoTime();
            call.run();
            samples[i] = System.nanoTime() - start;
        }
        Arrays.sort(samples);
        return samples[samples.length / 2];
    }

    /** The median time of the mount's second page. */
    private static long medianPageNanos(FilesystemProvider p) {
        String cursor = p.list(null, 50).nextCursor();
        return medianNanos(() -> p.list(cursor, 50));
    }

    @Test
    void aPageOfATwentyThousandFileMountCostsAboutWhatAPageOfAHundredFileMountCosts() throws Exception {
        var small = provider(tree(tmp.resolve("small"), 100), Map.of());
        var large = provider(tree(tmp.resolve("large"), 20_000), Map.of());
        medianPageNanos(small); // warm up: the first listing waits for the index
        medianPageNanos(large);
        long smallPage = medianPageNanos(small);
        long largePage = medianPageNanos(large);
        // A listing that walks and sorts the mount costs in proportion to it (200 times the files here).
        assertTrue(largePage < 10 * smallPage + 2_000_000,
                "a page of 20,000 files took " + largePage / 1000 + " µs, of 100 files " + smallPage / 1000 + " µs");
    }

    /** The median time of completing the first ten names of the mount's one folder. */
    private static long medianCompletionNanos(FilesystemProvider p) {
        String template = p.templates().get(0).uriTemplate();
        return medianNanos(() -> assertEquals(10, p.complete(template, "path", "big/f", Map.of(), 10).size()));
    }

    private static Path folder(Path root, int files) throws Exception {
        Path big = Files.createDirectories(root.resolve("big"));
        for (int i = 0; i < files; i++) {
            Files.writeString(big.resolve(String.format("f%05d.txt", i)), "x");
        }
        return root;
    }

    @Test
    void aCompletionInATwentyThousandFileFolderCostsAboutWhatOneInAHundredFileFolderCosts() throws Exception {
        var small = provider(folder(tmp.resolve("small"), 100), Map.of());
        var large = provider(folder(tmp.resolve("large"), 20_000), Map.of());
        medianCompletionNanos(small); // warm up: the first completion waits for the index
        medianCompletionNanos(large);
        long smallOne = medianCompletionNanos(small);
        long largeOne = medianCompletionNanos(large);
        // A completion that reads the folder costs in proportion to it (200 times the names here).
        assertTrue(largeOne < 10 * smallOne + 2_000_000,
                "a completion in 20,000 files took " + largeOne / 1000 + " µs, in 100 files " + smallOne / 1000 + " µs");
        String template = large.templates().get(0).uriTemplate();
        assertEquals(List.of("big/"), large.complete(template, "path", "", Map.of(), 10), "a folder is offered once");
        assertEquals(List.of("big/f19998.txt", "big/f19999.txt"), large.complete(template, "path", "big/f1999", Map.of(), 10)
                .subList(8, 10), "the names that start with the prefix, in order");
    }

    @Test
    void theWatchedIndexListsFilesCreatedAndForgetsDeletedDirectories() throws Exception {
        Path root = tree(tmp.resolve("w"), 3);
        var p = provider(root, Map.of());
        assertEquals(3, all(p).size());
        Files.createDirectories(root.resolve("new/deeper"));
        Files.writeString(root.resolve("new/deeper/late.txt"), "late");
        Wait.until("the listing to follow the tree", Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            List<String> l = all(p);
            return l.contains("file:///docs/new/deeper/late.txt");
        });
        Files.delete(root.resolve("new/deeper/late.txt"));
        Files.delete(root.resolve("new/deeper"));
        Wait.until("the listing to follow the tree", Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            List<String> l = all(p);
            return !l.contains("file:///docs/new/deeper/late.txt") && l.size() == 3;
        });
    }

    @Test
    void anUnwatchedTreeIsRescannedEveryInterval() throws Exception {
        Path root = tree(tmp.resolve("u"), 3);
        var p = provider(root, Map.of("watch", "false", "rescan-interval", "PT0.2S"));
        assertFalse(p.emitsChanges(), "no watcher, no change events");
        assertEquals(3, all(p).size());
        Files.writeString(root.resolve("later.txt"), "later");
        Wait.until("the listing to follow the tree", Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            List<String> l = all(p);
            return l.contains("file:///docs/later.txt");
        });
    }

    @Test
    void aListingOfManyLinksOrVanishedFilesStillReadsOnlyItsPage() throws Exception {
        Path root = tree(tmp.resolve("v"), 120);
        var p = provider(root, Map.of("watch", "false", "rescan-interval", "PT1H"));
        assertEquals(120, all(p).size());
        // Unwatched: the index still holds them. A page counts what it looked at, not what it found.
        try (var files = Files.walk(root.resolve("d000"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.delete(f);
            }
        }
        var first = p.list(null, 50);
        assertTrue(first.items().isEmpty(), "every file of the first page is gone");
        assertTrue(first.nextCursor() != null, "and the listing goes on from after them");
        assertEquals(0, all(p).size(), "vanished files are dropped from the index once met");
    }

    private static List<String> all(FilesystemProvider p) {
        var seen = new ArrayList<String>();
        String cursor = null;
        do {
            var page = p.list(cursor, 50);
            page.items().stream().map(ResourceEntry::uri).map(Object::toString).forEach(seen::add);
            cursor = page.nextCursor();
        } while (cursor != null);
        return seen;
    }
}
