package dev.quaestor.provider.filesystem;

import dev.quaestor.provider.ChangeListeners;
import dev.quaestor.provider.ChangeRegistration;
import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.CursorCodec;
import dev.quaestor.provider.MimeTypes;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceChangeListener;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import dev.quaestor.uri.UriTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Serves files below one root directory. Every path is resolved to its real path and must stay
 * below the root's real path, so a symlink (or a symlinked parent) that leads outside is treated
 * as absent. By default a symlink inside the root is absent too: the policy judges a URI by its
 * path, and a link would serve another path's bytes under it ({@code options.follow-symlinks=true}
 * allows links that stay inside the root, for trees where that is intended). The checked path is then opened through
 * {@link BelowRoot}, which follows no link below the root, so a folder swapped for a link after the check is not
 * followed. Dot-files are hidden
 * unless {@code options.include-hidden=true}.
 *
 * <p>A listing reads one page from the mount's {@link FileIndex} (kept by the watcher, or rebuilt every
 * {@code options.rescan-interval} where the tree cannot be watched or {@code options.watch=false}), never the whole
 * tree. Without a watcher, files change unannounced: change events need it.
 */
final class FilesystemProvider implements ResourceProvider {

    private static final Logger LOG = Logger.getLogger(FilesystemProvider.class);
    /** How many unservable files are logged, each once; past it a mount's further ones are not. */
    private static final int UNSERVABLE_LOGGED = 1000;

    /** Files up to this size are read whole (and judged text or binary on all their bytes); larger ones are streamed. */
    static final int IN_MEMORY_LIMIT = 1024 * 1024;
    private static final int TEXT_SNIFF_BYTES = 8192;

    private final Mount mount;
    private final Path root;
    private final Set<String> unservable = ConcurrentHashMap.newKeySet();
    private final long maxBytes;
    private final boolean includeHidden;
    private final boolean followSymlinks;
    private final boolean watch;
    /** How long a listing waits for the mount's index to be built (at start-up). */
    private static final long INDEX_WAIT_MILLIS = 30_000;
    /** A deleted directory that took more listed files than this is announced as a change somewhere in the mount. */
    static final int MAX_LISTED_GONE = 1_000;

    private final ChangeListeners listeners = new ChangeListeners(this::ensureWatching, () -> { });
    private final FileIndex index;
    /** Small files' bytes, served again while a stat says the file is unchanged. */
    private final FileContents contents;
    /** Runs between a small file's stat and its read (a test changes the file there). */
    Runnable afterStat = () -> { };
    private boolean indexing;          // guarded by index
    private FileTreeWatcher watcher;   // guarded by this; runs from the first listing or listener until close()
    private boolean closed;            // guarded by this

    FilesystemProvider(Mount mount) {
        this(mount, System::currentTimeMillis);
    }

    /** {@code clock}: the epoch's milliseconds now, which the content cache judges files' times against. */
    FilesystemProvider(Mount mount, java.util.function.LongSupplier clock) {
        this.mount = mount;
        Path configured = Path.of(mount.requireSetting("root"));
        try {
            this.root = configured.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': root " + configured + " does not exist");
        }
        if (!Files.isDirectory(root)) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': root " + root + " is not a directory");
        }
        this.maxBytes = mount.longSetting("max-bytes", 10 * 1024 * 1024);
        this.includeHidden = Boolean.parseBoolean(mount.setting("include-hidden").orElse("false"));
        this.followSymlinks = Boolean.parseBoolean(mount.setting("follow-symlinks").orElse("false"));
        this.watch = Boolean.parseBoolean(mount.setting("watch").orElse("true"));
        this.contents = new FileContents(mount.longSetting("content-cache", 16L * 1024 * 1024), clock);
        this.index = new FileIndex(root, p -> includeHidden || !hasHiddenPart(root.relativize(p)),
                mount.durationSetting("rescan-interval", java.time.Duration.ofSeconds(30)).toMillis(), mount.name());
    }

    /**
     * A page from the mount's {@link FileIndex}: the {@code limit} indexed paths after the cursor, each checked
     * (confined, a regular file) and described; nothing past them is read. A path that fails the check is skipped
     * but counts towards the page, so a tree of links or vanished files cannot make one page read more.
     */
    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        String after = cursor == null ? null : decodeCursor(cursor);
        startIndexing();
        List<String> candidates = index.after(after, limit + 1, INDEX_WAIT_MILLIS);
        int examined = Math.min(limit, candidates.size());
        var out = new ArrayList<ResourceEntry>(examined);
        for (String rel : candidates.subList(0, examined)) {
            Path p = root.resolve(rel);
            Path real = confined(p);
            if (real == null) {
                if (Files.notExists(p, LinkOption.NOFOLLOW_LINKS)) {
                    index.removed(p);
                }
                continue;
            }
            if (!Files.isRegularFile(real)) {
                continue;
            }
            CanonicalUri uri = uriOf(p);
            if (uri == null) {
                unservable(p);
                continue;
            }
            try {
                out.add(entry(uri, real));
            } catch (UncheckedIOException e) {
                // gone between the check and its description: not listed
            }
        }
        return new Page<>(out, candidates.size() > limit ? encodeCursor(candidates.get(limit - 1)) : null);
    }

    /**
     * Starts the index once: the watcher first (so that nothing created during the walk is missed), then the walk,
     * on a thread of its own; a listing waits for it. The factory calls this at start-up.
     */
    void startIndexing() {
        synchronized (index) {
            if (indexing) {
                return;
            }
            indexing = true;
        }
        Thread t = new Thread(() -> {
            ensureWatching();
            index.rebuild();
        }, "quaestor-index-" + mount.name());
        t.setDaemon(true);
        t.start();
    }

    @Override
    public ResourceContent read(CanonicalUri uri) {
        Path real = locate(uri);
        try {
            long stampedAt = contents.now();
            FileContents.Stamp stamp = FileContents.stamp(real);
            if (!stamp.regularFile()) {
                throw new ResourceNotFoundException(uri.toString());
            }
            if (stamp.size() > maxBytes) {
                throw new ContentTooLargeException(maxBytes, stamp.size());
            }
            String name = real.getFileName().toString();
            String leaf = uri.segments().get(uri.segments().size() - 1);
            java.time.Instant modified = stamp.modified().toInstant();
            if (stamp.size() > IN_MEMORY_LIMIT) {
                return streamed(uri, real, stamp);
            }
            afterStat.run();
            FileContents.Held held = contents.get(real, stamp);
            if (held != null) {
                // Unchanged since its bytes were read (the stat above says so): served without opening the file.
                var entry = new ResourceEntry(uri, leaf, null, null, held.mimeType(), (long) held.bytes().length, modified);
                return new ResourceContent(entry, held.bytes(), held.text());
            }
            byte[] bytes;
            try (InputStream in = BelowRoot.stream(root, real)) {
                bytes = in.readNBytes((int) Math.min(maxBytes + 1, IN_MEMORY_LIMIT + 1));
            }
            if (bytes.length > maxBytes) {
                throw new ContentTooLargeException(maxBytes);
            }
            if (bytes.length > IN_MEMORY_LIMIT) {
                // It grew past the in-memory limit after its stat: what was read is only its first bytes, never
                // served as if they were all of it. The whole file is streamed instead, as a large one is.
                FileContents.Stamp now = FileContents.stamp(real);
                if (!now.regularFile()) {
                    throw new ResourceNotFoundException(uri.toString());
                }
                if (now.size() > maxBytes) {
                    throw new ContentTooLargeException(maxBytes, now.size());
                }
                return streamed(uri, real, now);
            }
            String mime = MimeTypes.detect(name, head(bytes));
            boolean text = MimeTypes.isText(mime) && MimeTypes.looksLikeText(bytes);
            contents.put(real, stamp, stampedAt, bytes, mime, text);
            var entry = new ResourceEntry(uri, leaf, null, null, mime, (long) bytes.length, modified);
            return new ResourceContent(entry, bytes, text);
        } catch (NoSuchFileException e) {
            throw new ResourceNotFoundException(uri.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Large: streamed from the file as it is sent, never held whole, and read to its end whatever its size then (the
     * server holds it to {@code max-bytes} as it streams). Text is judged by the first bytes; the server reads it twice,
     * to check it is UTF-8 throughout before sending it as text.
     */
    private ResourceContent streamed(CanonicalUri uri, Path real, FileContents.Stamp stamp) throws IOException {
        String name = real.getFileName().toString();
        String leaf = uri.segments().get(uri.segments().size() - 1);
        byte[] head = readHead(real, TEXT_SNIFF_BYTES);
        String mime = MimeTypes.detect(name, head(head));
        boolean text = MimeTypes.isText(mime) && MimeTypes.looksLikeTextPrefix(head);
        var entry = new ResourceEntry(uri, leaf, null, null, mime, stamp.size(), stamp.modified().toInstant());
        return ResourceContent.rereadable(entry, text, stamp.size(), () -> BelowRoot.stream(root, real));
    }

    @Override
    public boolean emitsChanges() {
        return watch;
    }

    /** File changes under the root, from a {@link FileTreeWatcher} that runs while anyone listens. */
    @Override
    public ChangeRegistration addChangeListener(ResourceChangeListener listener) {
        return listeners.add(listener);
    }

    /**
     * The watcher, started once and kept until {@link #close}: it keeps the index current and tells the listeners.
     * If the kernel cannot give one (or cannot watch every directory), the index falls back to rescans.
     */
    private synchronized void ensureWatching() {
        if (watcher != null || closed || !watch) {
            return;
        }
        try {
            var w = new FileTreeWatcher(root, p -> p.startsWith(root) && (includeHidden || !hasHiddenPart(root.relativize(p))),
                    this::changed, mount.name());
            w.start();
            watcher = w;
            index.watchedBy(w::complete);
        } catch (IllegalStateException e) {
            LOG.warnf("mount %s: %s; its listing index is rebuilt every rescan interval instead", mount.name(),
                    e.getMessage());
        }
    }

    private void changed(FileTreeWatcher.Kind kind, Path path) {
        CanonicalUri uri = uriOf(path); // null: a name no URI can name, announced as nothing
        switch (kind) {
            case MODIFIED -> {
                if (uri != null) {
                    listeners.updated(uri);
                }
            }
            case CREATED -> {
                index.added(path);
                if (uri != null) {
                    listeners.updated(uri);
                    listeners.listChanged(uri);
                }
            }
            case DELETED -> {
                List<String> gone = index.removed(path, MAX_LISTED_GONE);
                if (uri != null) {
                    listeners.updated(uri);
                }
                listGone(uri, gone);
            }
            case OVERFLOW -> {
                index.rebuild();
                listeners.listChanged();
            }
        }
    }

    /**
     * A deleted path's list change: each listed file it took with it (a directory takes everything below it), or the
     * path itself if the index listed nothing there; past {@link #MAX_LISTED_GONE} files, a change somewhere in the
     * mount.
     */
    private void listGone(CanonicalUri uri, List<String> gone) {
        if (gone == null) {
            listeners.listChanged();
            return;
        }
        if (gone.isEmpty()) {
            if (uri != null) {
                listeners.listChanged(uri);
            }
            return;
        }
        for (String rel : gone) {
            CanonicalUri entry = uriOf(root.resolve(rel));
            if (entry != null) {
                listeners.listChanged(entry);
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }

    @Override
    public List<TemplateEntry> templates() {
        String prefix = mount.prefix().toString();
        return List.of(TemplateEntry.of(UriTemplate.parse(prefix + "/{+path}"), mount.name(), "Files in " + mount.name(),
                "Any file below " + prefix + "/", null));
    }

    /**
     * Completes {@code {+path}}: the entries of the folder named by the prefix up to its last
     * {@code /} whose names start with the rest; folders end in {@code /}. Hidden entries and
     * entries that leave the root (or are links, unless followed) are not offered.
     */
    @Override
    public List<String> complete(String uriTemplate, String argument, String prefix, java.util.Map<String, String> resolved,
            int limit) {
        if (!argument.equals("path") || !templates().get(0).uriTemplate().equals(uriTemplate)) {
            return List.of();
        }
        int slash = prefix.lastIndexOf('/');
        String folder = slash < 0 ? "" : prefix.substring(0, slash + 1);
        String start = prefix.substring(slash + 1);
        Path dir = root;
        for (String seg : folder.split("/")) {
            if (seg.isEmpty()) {
                continue;
            }
            if (seg.equals("..") || seg.equals(".") || (!includeHidden && seg.startsWith(".")) || seg.indexOf('\0') >= 0
                    || seg.indexOf('\\') >= 0) {
                return List.of();
            }
            dir = dir.resolve(seg);
        }
        Path realDir = dir.equals(root) ? root : confined(dir);
        if (realDir == null || !Files.isDirectory(realDir)) {
            return List.of();
        }
        // From the mount's index: a completion costs its answer, not a read of the folder. Names that cannot be
        // written as a canonical URI segment are never offered (nothing could read them).
        startIndexing();
        var out = new ArrayList<String>();
        for (String child : index.children(folder, start, limit, INDEX_WAIT_MILLIS)) {
            boolean isFolder = child.endsWith("/");
            String name = isFolder ? child.substring(0, child.length() - 1) : child;
            if (!isCanonicalName(name)) {
                continue;
            }
            Path real = confined(realDir.resolve(name));
            if (real == null) {
                continue;
            }
            if (Files.isDirectory(real)) { // a folder, or a followed link to one (the index holds the link)
                out.add(folder + name + "/");
            } else if (!isFolder && Files.isRegularFile(real)) {
                out.add(folder + name);
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    /** The real path of a URI's file, or not-found if it is absent, hidden, unreadable or outside the root. */
    private Path locate(CanonicalUri uri) {
        if (!uri.isWithin(mount.prefix())) {
            throw new ResourceNotFoundException(uri.toString());
        }
        List<String> rel = uri.relativeTo(mount.prefix());
        if (rel.isEmpty()) {
            throw new ResourceNotFoundException(uri.toString());
        }
        Path p = root;
        for (String seg : rel) {
            if ((!includeHidden && seg.startsWith(".")) || seg.indexOf('\0') >= 0 || seg.contains("/")) {
                throw new ResourceNotFoundException(uri.toString());
            }
            p = p.resolve(seg);
        }
        Path real = confined(p);
        // Whether it is a regular file is asked by the read's own stat (FileContents.stamp), not by another here.
        if (real == null || !Files.isReadable(real)) {
            throw new ResourceNotFoundException(uri.toString());
        }
        return real;
    }

    /**
     * The real path if it is below the root (and, unless links are followed, is the path itself:
     * no component is a symlink), else null.
     */
    private Path confined(Path p) {
        try {
            Path real = p.toRealPath();
            if (!followSymlinks && !real.equals(p.toAbsolutePath().normalize())) {
                return null;
            }
            return real.startsWith(root) && !real.equals(root) ? real : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private ResourceEntry entry(CanonicalUri uri, Path real) {
        try {
            var attrs = BelowRoot.attributes(root, real);
            String name = real.getFileName().toString();
            String mime = MimeTypes.byName(name);
            if (mime == null) {
                mime = MimeTypes.detect(name, readHead(real));
            }
            return new ResourceEntry(uri, uri.segments().get(uri.segments().size() - 1), null, null, mime,
                    attrs.size(), attrs.lastModifiedTime().toInstant());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] readHead(Path real) throws IOException {
        return readHead(real, 512);
    }

    private byte[] readHead(Path real, int n) throws IOException {
        try (InputStream in = BelowRoot.stream(root, real)) {
            return in.readNBytes(n);
        }
    }

    private static byte[] head(byte[] bytes) {
        return bytes.length <= 512 ? bytes : java.util.Arrays.copyOf(bytes, 512);
    }

    /**
     * The URI of a path below the root, or null if a name on it cannot be written as a canonical URI segment (a name in
     * decomposed Unicode, ending in a dot, holding a backslash, …): the policy judges canonical URIs, and no read can
     * reach such a file, so it is neither listed nor announced.
     */
    private CanonicalUri uriOf(Path p) {
        CanonicalUri u = mount.prefix();
        for (Path part : root.relativize(p)) {
            u = u.child(part.toString());
        }
        return canonicalOrNull(u);
    }

    /**
     * A file a listing passed over because no canonical URI names it: logged once (up to {@link #UNSERVABLE_LOGGED}
     * files), so that an operator learns why it is missing rather than finding it silently absent.
     */
    private void unservable(Path p) {
        String rel = root.relativize(p).toString();
        if (unservable.size() < UNSERVABLE_LOGGED && unservable.add(rel)) {
            LOG.warnf("mount %s: %s is not served: a name on its path cannot be written as a canonical URI (decomposed"
                    + " Unicode, as macOS writes names; a trailing dot; a backslash; …); rename it", mount.name(),
                    loggable(rel));
        }
    }

    /** A name as a log line may hold it: control and format characters (a line break, a direction override) escaped. */
    static String loggable(String name) {
        var out = new StringBuilder(name.length());
        name.codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                out.append(String.format("\\u%04X", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** The files listings passed over so far because no canonical URI names them, relative to the root. */
    Set<String> unservable() {
        return Set.copyOf(unservable);
    }

    private boolean isCanonicalName(String name) {
        return canonicalOrNull(mount.prefix().child(name)) != null;
    }

    /** {@code u} if its text parses back to it as a canonical URI, else null. */
    private static CanonicalUri canonicalOrNull(CanonicalUri u) {
        try {
            return UriCanonicalizer.canonicalize(u.toString()).equals(u) ? u : null;
        } catch (InvalidUriException e) {
            return null;
        }
    }

    private static boolean hasHiddenPart(Path rel) {
        for (Path part : rel) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String encodeCursor(String rel) {
        return CursorCodec.encode("f1", rel);
    }

    private static String decodeCursor(String cursor) {
        return CursorCodec.decode(cursor, "f1", 1).get(0);
    }
}
