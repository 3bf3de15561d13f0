package dev.quaestor.provider.filesystem;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The bytes of a mount's small files, kept so that a read of a file that has not changed skips its open and read, as
 * git trusts its index for files older than a racy window. Every read still takes the file's {@link Stamp} (one
 * {@code stat}): held bytes are served only while the file's device, inode, size, modification time and change time
 * are all as they were when its bytes were read. The change time cannot be set from user space and moves on every
 * write, so a change of the same size that keeps the modification time (a copy preserving times, a write within the
 * same tick of a coarse clock) still misses.
 *
 * <p>Bytes are kept only for a file whose modification and change times were both older than {@link #RACY_WINDOW_MILLIS}
 * by this server's clock when their stamp was taken: a write later than that moves the times by more than any file
 * system's timestamp granularity, so it cannot leave them as they were. A file changed between its stat and its read
 * is kept under the stamp of before the change, which no later stat gives again. On a network file system the times
 * are the file server's: a mount whose file server's clock runs behind this one by more than the window should set
 * the cache to 0. Bounded in bytes, least recently used first out; a mount's {@code options.content-cache} (bytes,
 * 0: none) sets the bound.
 */
final class FileContents {

    /** How much older than now a file's times must be for its bytes to be kept (the coarsest common granularity, 2 s). */
    static final long RACY_WINDOW_MILLIS = 2_000;
    /** Files larger than this are read every time. */
    static final int MAX_FILE_BYTES = 256 * 1024;
    private static final String STAMP_ATTRIBUTES = "unix:dev,ino,size,lastModifiedTime,ctime,isRegularFile";

    /**
     * What one {@code stat} says of a file, enough to tell that it changed, and whether it is a regular file (so that
     * a read needs no second stat to ask). Null parts where the platform has none.
     */
    record Stamp(Object device, Object inode, long size, FileTime modified, FileTime changed, boolean regularFile) {

        /** Whether it says the file was last touched before {@code beforeMillis} (the epoch's milliseconds). */
        boolean before(long beforeMillis) {
            return changed != null && modified.toMillis() < beforeMillis && changed.toMillis() < beforeMillis;
        }
    }

    /** Bytes as read under a stamp, with what was judged of them (their type, and whether they are text). */
    record Held(Stamp stamp, byte[] bytes, String mimeType, boolean text) {
    }

    private final Cache<Path, Held> held;
    private final LongSupplier clock;

    FileContents(long maxBytes) {
        this(maxBytes, System::currentTimeMillis);
    }

    /** {@code clock}: the epoch's milliseconds now (a test moves it). */
    FileContents(long maxBytes, LongSupplier clock) {
        this.clock = clock;
        this.held = maxBytes <= 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((Path p, Held h) -> h.bytes().length + 64)
                .executor(Runnable::run) // eviction on the reading thread: no hand-off to another pool
                .build();
    }

    /** The file's stamp, from one {@code stat} (on a platform without the unix attribute view: without change time). */
    static Stamp stamp(Path real) throws IOException {
        try {
            Map<String, Object> a = Files.readAttributes(real, STAMP_ATTRIBUTES);
            return new Stamp(a.get("dev"), a.get("ino"), (Long) a.get("size"), (FileTime) a.get("lastModifiedTime"),
                    (FileTime) a.get("ctime"), (Boolean) a.get("isRegularFile"));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            var b = Files.readAttributes(real, java.nio.file.attribute.BasicFileAttributes.class);
            return new Stamp(null, b.fileKey(), b.size(), b.lastModifiedTime(), null, b.isRegularFile());
        }
    }

    /** The bytes held for {@code real} if it is still as {@code now} says it was when they were read, else null. */
    Held get(Path real, Stamp now) {
        if (held == null) {
            return null;
        }
        Held h = held.getIfPresent(real);
        return h != null && h.stamp().equals(now) ? h : null;
    }

    /** This server's clock, read before a file's stamp is taken: what {@link #put} judges the stamp's times against. */
    long now() {
        return clock.getAsLong();
    }

    /**
     * Keeps bytes read under {@code stamp}, taken at {@code stampedAt} ({@link #now}), if the file's times were older
     * than the racy window then (see the class comment); else lets go of any bytes held for the file.
     */
    void put(Path real, Stamp stamp, long stampedAt, byte[] bytes, String mimeType, boolean text) {
        if (held == null) {
            return;
        }
        if (bytes.length <= MAX_FILE_BYTES && stamp.size() == bytes.length && stamp.before(stampedAt - RACY_WINDOW_MILLIS)) {
            held.put(real, new Held(stamp, bytes, mimeType, text));
        } else {
            held.invalidate(real);
        }
    }

    /** For tests: how many files are held now. */
    long size() {
        if (held == null) {
            return 0;
        }
        held.cleanUp();
        return held.estimatedSize();
    }
}
