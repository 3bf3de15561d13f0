package dev.quaestor.provider.filesystem;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * Watches a directory tree with the JDK {@link WatchService} (one registration per directory,
 * since it is not recursive on Linux) and reports what happened to which path. Directories created
 * later are registered as they appear; symlinked directories are not followed. One daemon thread
 * per watcher, from {@link #start} to {@link #close}.
 */
final class FileTreeWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FileTreeWatcher.class);

    /** What happened: a file appeared, changed, or vanished; or events were lost. */
    enum Kind { CREATED, MODIFIED, DELETED, OVERFLOW }

    interface Sink {
        void changed(Kind kind, Path path);
    }

    private final Path root;
    private final Predicate<Path> watched;
    private final Sink sink;
    private final Map<WatchKey, Path> dirs = new ConcurrentHashMap<>();
    private final WatchService service;
    private final Thread thread;
    private volatile boolean complete = true;

    FileTreeWatcher(Path root, Predicate<Path> watched, Sink sink, String name) {
        this.root = root;
        this.watched = watched;
        this.sink = sink;
        try {
            this.service = FileSystems.getDefault().newWatchService();
        } catch (IOException e) {
            throw new IllegalStateException("cannot watch " + root + ": " + e.getMessage(), e);
        }
        this.thread = new Thread(this::run, "quaestor-watch-" + name);
        this.thread.setDaemon(true);
    }

    void start() {
        registerTree(root);
        thread.start();
    }

    private void registerTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                    if (!d.equals(root) && !watched.test(d)) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    dirs.put(d.register(service, StandardWatchEventKinds.ENTRY_CREATE,
                            StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY), d);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            complete = false;
            LOG.warnf("cannot watch %s: %s", dir, e.getMessage());
        }
    }

    /** False once a directory of the tree could not be registered: changes below it go unreported. */
    boolean complete() {
        return complete;
    }

    private void run() {
        while (true) {
            WatchKey key;
            try {
                key = service.take();
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
            Path dir = dirs.get(key);
            for (WatchEvent<?> event : key.pollEvents()) {
                try {
                    handle(dir, event);
                } catch (RuntimeException e) {
                    LOG.warnf(e, "watch event on %s failed", dir);
                }
            }
            if (!key.reset()) {
                dirs.remove(key);
            }
        }
    }

    private void handle(Path dir, WatchEvent<?> event) {
        if (event.kind() == StandardWatchEventKinds.OVERFLOW || dir == null) {
            sink.changed(Kind.OVERFLOW, root);
            return;
        }
        Path path = dir.resolve((Path) event.context());
        if (!watched.test(path)) {
            return;
        }
        if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE) {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                registerTree(path);
                // Files may have been written before the registration took effect.
                try (var files = Files.walk(path)) {
                    files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).filter(watched)
                            .forEach(p -> sink.changed(Kind.CREATED, p));
                } catch (IOException e) {
                    sink.changed(Kind.OVERFLOW, root);
                }
            } else {
                sink.changed(Kind.CREATED, path);
            }
        } else if (event.kind() == StandardWatchEventKinds.ENTRY_DELETE) {
            sink.changed(Kind.DELETED, path);
        } else if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            sink.changed(Kind.MODIFIED, path);
        }
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            LOG.debugf("closing watcher of %s: %s", root, e.getMessage());
        }
        thread.interrupt();
    }
}
