package dev.quaestor.provider.filesystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The files a filesystem mount may list (regular files and links, hidden ones only if the mount shows them), as
 * paths relative to the root in sorted order, so that a page seeks to its cursor and reads no further than the page:
 * what a listing costs is the page, whatever the mount holds.
 *
 * <p>It is built by one walk of the tree, and kept current by the mount's {@link FileTreeWatcher} ({@link #added},
 * {@link #removed}, {@link #rebuild} on lost events). Where the kernel cannot watch the whole tree (no watch service,
 * or a directory it could not register), the index is rebuilt by one walk in the background once it is older than
 * the rescan interval, and pages are served from the previous one meanwhile. A path listed that has gone since is
 * skipped by the page and dropped here ({@link #removed}).
 */
final class FileIndex {

    private static final Logger LOG = Logger.getLogger(FileIndex.class);

    private final Path root;
    private final Predicate<Path> shown;
    private final long rescanMillis;
    private final String name;
    private volatile NavigableSet<String> paths = new ConcurrentSkipListSet<>();
    private final CountDownLatch built = new CountDownLatch(1);
    private final AtomicBoolean rebuilding = new AtomicBoolean();
    private volatile BooleanSupplier watching = () -> false;
    private volatile long builtAt;

    /**
     * @param shown whether a path below the root may be listed at all (the mount's hidden-file rule)
     * @param rescanMillis how old the index may grow before it is walked again, while the tree is not watched
     */
    FileIndex(Path root, Predicate<Path> shown, long rescanMillis, String name) {
        this.root = root;
        this.shown = shown;
        this.rescanMillis = rescanMillis;
        this.name = name;
    }

    /** Whether a watcher reports every change of the tree now (else the index is rebuilt every rescan interval). */
    void watchedBy(BooleanSupplier complete) {
        watching = complete;
    }

    /** Walks the tree and replaces the index (the first build, and after lost events). */
    void rebuild() {
        var fresh = new ConcurrentSkipListSet<String>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> !p.equals(root))
                    .filter(shown)
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p))
                    .forEach(p -> fresh.add(relative(p)));
        } catch (IOException | java.io.UncheckedIOException e) {
            LOG.warnf("mount %s: the walk of %s failed (%s); its index keeps what it found", name, root, e.getMessage());
        }
        paths = fresh;
        builtAt = System.nanoTime();
        built.countDown();
    }

    /** A file appeared (or a link): listed from now on. */
    void added(Path p) {
        if (!p.equals(root) && p.startsWith(root) && shown.test(p)) {
            paths.add(relative(p));
        }
    }

    /** A path vanished: it, and everything below it if it was a directory, is no longer listed. */
    void removed(Path p) {
        removed(p, 0);
    }

    /**
     * A path vanished: it, and everything below it if it was a directory, is no longer listed. Returns the listed
     * paths this took out of the index (relative to the root), or null if there were more than {@code limit}.
     */
    List<String> removed(Path p, int limit) {
        if (!p.startsWith(root) || p.equals(root)) {
            return List.of();
        }
        String rel = relative(p);
        var gone = new ArrayList<String>();
        boolean overLimit = false;
        if (paths.remove(rel)) {
            gone.add(rel);
        }
        // Below a directory: rel + "/" up to rel + "0" ('0' is the character after '/').
        for (var it = paths.subSet(rel + "/", true, rel + "0", false).iterator(); it.hasNext();) {
            String below = it.next();
            it.remove();
            if (gone.size() < limit) {
                gone.add(below);
            } else {
                overLimit = true;
            }
        }
        return overLimit || gone.size() > limit ? null : gone;
    }

    /**
     * Up to {@code count} listed paths after {@code after} (null: from the first), in order, read from the index
     * alone; waits up to {@code waitMillis} for the first build.
     */
    List<String> after(String after, int count, long waitMillis) {
        awaitBuilt(waitMillis);
        refreshIfStale();
        NavigableSet<String> view = after == null ? paths : paths.tailSet(after, false);
        var out = new ArrayList<String>(Math.min(count, 1024));
        for (String p : view) {
            if (out.size() == count) {
                break;
            }
            out.add(p);
        }
        return out;
    }

    /**
     * Up to {@code count} entries directly in {@code folder} ({@code ""} or a relative path ending in {@code /}) whose
     * names start with {@code start}: a file's name, or a folder's name and {@code /}, once however many files it
     * holds; read from the index alone, one seek per entry, so that what a completion costs is its answer, whatever
     * the folder holds. In the index's order (a folder sorts as its name followed by {@code /}); waits up to
     * {@code waitMillis} for the first build.
     */
    List<String> children(String folder, String start, int count, long waitMillis) {
        awaitBuilt(waitMillis);
        refreshIfStale();
        NavigableSet<String> view = paths;
        String from = folder + start;
        var out = new ArrayList<String>(Math.min(count, 1024));
        String p = view.ceiling(from);
        while (p != null && p.startsWith(from) && out.size() < count) {
            int slash = p.indexOf('/', folder.length());
            if (slash < 0) {
                out.add(p.substring(folder.length()));
                p = view.higher(p);
            } else {
                out.add(p.substring(folder.length(), slash + 1));
                // Past everything below that folder: '0' is the character after '/'.
                p = view.ceiling(p.substring(0, slash) + "0");
            }
        }
        return out;
    }

    Path resolve(String relative) {
        return root.resolve(relative);
    }

    private void awaitBuilt(long waitMillis) {
        try {
            if (!built.await(waitMillis, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("mount " + name + ": its file index is still being built");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the file index of mount " + name);
        }
    }

    /** Unwatched and older than the rescan interval: one background walk, the current index served meanwhile. */
    private void refreshIfStale() {
        if (watching.getAsBoolean() || System.nanoTime() - builtAt < rescanMillis * 1_000_000L || !rebuilding.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                rebuild();
            } finally {
                rebuilding.set(false);
            }
        }, "quaestor-index-" + name);
        t.setDaemon(true);
        t.start();
    }

    private String relative(Path p) {
        return root.relativize(p).toString();
    }
}
