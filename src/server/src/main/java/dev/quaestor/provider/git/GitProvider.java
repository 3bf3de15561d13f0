package dev.quaestor.provider.git;

import dev.quaestor.provider.ChangeListeners;
import dev.quaestor.provider.ChangeRegistration;
import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.CursorCodec;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.MimeTypes;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceChangeListener;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.jboss.logging.Logger;

/**
 * Serves the files of a git repository at any branch, tag or commit: {@code git://<mount>/<ref>/<path>}
 * (see {@link GitRefs} for how a ref is written). Only the object database is read, through JGit:
 * there is no checkout, so no working tree, filters (smudge/clean, LFS), attributes or hooks are
 * ever involved, and a non-bare repository's working tree is ignored. Regular and executable files
 * are served; symlinks and submodules are not (a link's target would be served under another
 * path's URI), nor anything under a {@code .git} directory.
 *
 * <p>Listing walks the tree of each ref in {@code options.list-refs} (default: the branch HEAD
 * points to), in git path order, with a cursor holding the ref and the last path; a page seeks to the cursor
 * ({@link PathsAfter}) and reads at most its own entries. Reading checks
 * the size against {@code max-bytes} before loading. {@code lastModified} is the time of the last
 * commit that touched the path, looked up for a whole page (or one read) by one walk of at most
 * {@code options.last-modified-depth} commits ({@link LastCommits}); a path not touched within them has none.
 * While a change listener is registered, refs are polled every
 * {@code options.poll-interval}; with {@code options.remote}, the repository is fetched every
 * {@code options.fetch-interval} as a mirror of that remote.
 */
final class GitProvider implements ResourceProvider {

    private static final Logger LOG = Logger.getLogger(GitProvider.class);

    /** Blobs up to this size are read whole; larger ones are streamed (see GitProviderFactory's stream threshold). */
    static final int IN_MEMORY_LIMIT = 1024 * 1024;
    private static final int TEXT_SNIFF_BYTES = 8192;
    /** How many commits, newest first, a listing page (or a read) examines for its paths' {@code lastModified}. */
    static final int DEFAULT_LAST_MODIFIED_DEPTH = 1000;

    private final Mount mount;
    private final Repository repo;
    private final CanonicalUri base;
    private final long maxBytes;
    private final List<String> listRefs;
    private final GitRefs refs;
    private final LastCommits lastCommits;
    private final UriTemplate template;
    private final ChangeListeners listeners;
    private final RefWatcher watcher;
    private final GitRemoteFetch fetcher;
    private final Duration pollInterval;
    private final ScheduledExecutorService scheduler;
    private ScheduledFuture<?> polling;

    GitProvider(Mount mount, Repository repo) {
        this.mount = mount;
        this.repo = repo;
        this.base = mount.prefix();
        if (!base.segments().isEmpty() || base.authority().isEmpty()) {
            throw new IllegalArgumentException("mount '" + mount.name() + "': git URIs have the form git://<mount>/<ref>/<path>,"
                    + " so the uri must be scheme://authority/ with no path, e.g. git://" + mount.name() + "/");
        }
        this.maxBytes = mount.longSetting("max-bytes", 10 * 1024 * 1024);
        this.refs = new GitRefs(repo, Boolean.parseBoolean(mount.setting("commit-ids").orElse("false")));
        this.lastCommits = new LastCommits(repo, (int) Math.min(Integer.MAX_VALUE,
                mount.longSetting("last-modified-depth", DEFAULT_LAST_MODIFIED_DEPTH)));
        this.template = UriTemplate.parse(base + "/{ref}/{+path}");
        this.listRefs = listRefs(mount, refs);
        this.pollInterval = mount.durationSetting("poll-interval", Duration.ofSeconds(2));
        this.listeners = new ChangeListeners(this::startPolling, this::stopPolling);
        this.watcher = new RefWatcher(repo, refs, base, listeners);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-git-" + mount.name());
            t.setDaemon(true);
            return t;
        });
        this.fetcher = mount.setting("remote").map(r -> new GitRemoteFetch(repo, r,
                mount.durationSetting("fetch-timeout", Duration.ofSeconds(30)))).orElse(null);
        if (fetcher != null) {
            Duration every = mount.durationSetting("fetch-interval", Duration.ofMinutes(5));
            scheduler.scheduleWithFixedDelay(this::fetchAndPoll, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static List<String> listRefs(Mount mount, GitRefs refs) {
        var configured = mount.setting("list-refs").map(String::trim).filter(s -> !s.isEmpty());
        if (configured.isPresent()) {
            var out = new ArrayList<String>();
            for (String r : configured.get().split(",")) {
                out.add(GitRefs.segmentOf(r.trim()));
            }
            return List.copyOf(out);
        }
        try {
            String head = refs.defaultBranchSegment();
            return head == null ? List.of() : List.of(head);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void fetchAndPoll() {
        try {
            fetcher.fetch();
        } catch (GitRemoteFetch.GitFetchException e) {
            LOG.warnf("mount %s: %s", mount.name(), e.getMessage());
            return;
        }
        if (!listeners.isEmpty()) {
            watcher.poll();
        }
    }

    // --- listing -------------------------------------------------------------------------------

    @Override
    public Page<ResourceEntry> list(String cursor, int limit) {
        int refIndex = 0;
        byte[] after = null;
        if (cursor != null) {
            String[] c = decodeCursor(cursor);
            refIndex = listRefs.indexOf(c[0]);
            if (refIndex < 0) {
                throw new InvalidCursorException();
            }
            after = c[1].getBytes(StandardCharsets.UTF_8);
        }
        var listed = new ArrayList<Listed>(limit);
        String lastRef = null;
        String lastPath = null;
        String next = null;
        int examined = 0;
        try (RevWalk walk = new RevWalk(repo)) {
            ObjectReader reader = walk.getObjectReader();
            pages:
            for (; refIndex < listRefs.size(); refIndex++, after = null) {
                String seg = listRefs.get(refIndex);
                RevCommit commit = refs.resolve(walk, seg);
                if (commit == null) {
                    continue;
                }
                try (TreeWalk tw = new TreeWalk(reader)) {
                    tw.addTree(commit.getTree());
                    tw.setRecursive(true);
                    if (after != null) {
                        tw.setFilter(new PathsAfter(after)); // seeks: no subtree wholly before the cursor is entered
                    }
                    while (tw.next()) {
                        String path = tw.getPathString();
                        if (examined == limit) {
                            next = encodeCursor(lastRef, lastPath);
                            break pages;
                        }
                        // Every path looked at counts towards the page, served or not: a page reads at most limit.
                        examined++;
                        lastRef = seg;
                        lastPath = path;
                        if (!isServedMode(tw.getFileMode(0))) {
                            continue;
                        }
                        CanonicalUri uri = GitPaths.uriOf(base.child(seg), path);
                        if (uri == null) {
                            continue;
                        }
                        listed.add(listed(uri, reader, commit, path, tw.getObjectId(0)));
                    }
                }
            }
            // One walk for the whole page's lastModified, bounded: a page costs a page, not its paths' histories.
            var times = lastCommits.of(listed.stream().map(Listed::ask).toList());
            var out = new ArrayList<ResourceEntry>(listed.size());
            for (Listed l : listed) {
                out.add(new ResourceEntry(l.uri(), l.name(), null, null, l.mimeType(), l.size(), times.get(l.ask())));
            }
            return new Page<>(out, next);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A listed path, before its page's {@code lastModified} are looked up together. */
    private record Listed(CanonicalUri uri, String name, String mimeType, long size, LastCommits.Ask ask) {
    }

    private Listed listed(CanonicalUri uri, ObjectReader reader, RevCommit commit, String path, ObjectId blob)
            throws IOException {
        long size = reader.getObjectSize(blob, Constants.OBJ_BLOB);
        String name = uri.segments().get(uri.segments().size() - 1);
        String mime = MimeTypes.byName(name);
        if (mime == null) {
            try (InputStream in = reader.open(blob, Constants.OBJ_BLOB).openStream()) {
                mime = MimeTypes.detect(name, in.readNBytes(512));
            }
        }
        return new Listed(uri, name, mime, size, new LastCommits.Ask(commit.copy(), path));
    }

    /** Commits the lastModified walks have looked up (a test's measure of their cost). */
    long lastModifiedCommitsRead() {
        return lastCommits.commitsRead.sum();
    }

    // --- reading -------------------------------------------------------------------------------

    @Override
    public ResourceContent read(CanonicalUri uri) {
        if (!uri.isWithin(base)) {
            throw new ResourceNotFoundException(uri.toString());
        }
        List<String> rel = uri.relativeTo(base);
        if (rel.size() < 2) {
            throw new ResourceNotFoundException(uri.toString());
        }
        String path = GitPaths.treePath(rel.subList(1, rel.size()));
        if (path == null) {
            throw new ResourceNotFoundException(uri.toString());
        }
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit commit = refs.resolve(walk, rel.get(0));
            if (commit == null) {
                throw new ResourceNotFoundException(uri.toString());
            }
            ObjectReader reader = walk.getObjectReader();
            try (TreeWalk tw = TreeWalk.forPath(reader, path, commit.getTree())) {
                if (tw == null || !isServedMode(tw.getFileMode(0))) {
                    throw new ResourceNotFoundException(uri.toString());
                }
                ObjectLoader loader = reader.open(tw.getObjectId(0), Constants.OBJ_BLOB);
                long size = loader.getSize();
                if (size > maxBytes) {
                    throw new ContentTooLargeException(maxBytes, size);
                }
                String name = rel.get(rel.size() - 1);
                if (loader.isLarge() || size > IN_MEMORY_LIMIT) {
                    // Streamed from the pack or loose object as it is sent (JGit inflates it on the fly); an object does
                    // not change, so it can be read twice (text is checked to be UTF-8 throughout before it is sent).
                    byte[] head;
                    try (InputStream in = loader.openStream()) {
                        head = in.readNBytes(TEXT_SNIFF_BYTES);
                    }
                    String mime = MimeTypes.detect(name, head.length <= 512 ? head : Arrays.copyOf(head, 512));
                    boolean text = MimeTypes.isText(mime) && MimeTypes.looksLikeTextPrefix(head);
                    var entry = new ResourceEntry(uri, name, null, null, mime, size, lastCommits.of(commit, path));
                    return ResourceContent.rereadable(entry, text, size, loader::openStream);
                }
                byte[] bytes = loader.getCachedBytes((int) Math.min(maxBytes, Integer.MAX_VALUE - 8));
                String mime = MimeTypes.detect(name, bytes.length <= 512 ? bytes : Arrays.copyOf(bytes, 512));
                boolean text = MimeTypes.isText(mime) && MimeTypes.looksLikeText(bytes);
                var entry = new ResourceEntry(uri, name, null, null, mime, (long) bytes.length,
                        lastCommits.of(commit, path));
                return new ResourceContent(entry, bytes, text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean isServedMode(FileMode mode) {
        return mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE;
    }

    @Override
    public List<TemplateEntry> templates() {
        return List.of(TemplateEntry.of(template, mount.name(), "Files in " + mount.name() + " at a ref",
                "A file at a branch, tag or full commit id; write '/' in a branch or tag name as ':'", null));
    }

    // --- completion -----------------------------------------------------------------------------

    /**
     * Completes {@code {ref}} with branch and tag names (as URI segments) and, once the ref is
     * chosen, {@code {+path}} with the entries of the folder the prefix names at that ref (folders
     * end in {@code /}). Only paths the mount serves are offered.
     */
    @Override
    public List<String> complete(String uriTemplate, String argument, String prefix, java.util.Map<String, String> resolved,
            int limit) {
        if (!template.text().equals(uriTemplate)) {
            return List.of();
        }
        try {
            if (argument.equals("ref")) {
                return refs.snapshot().keySet().stream().filter(r -> r.startsWith(prefix)).limit(limit).toList();
            }
            if (argument.equals("path") && resolved.get("ref") != null) {
                return completePath(resolved.get("ref"), prefix, limit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of();
    }

    private List<String> completePath(String ref, String prefix, int limit) throws IOException {
        int slash = prefix.lastIndexOf('/');
        String folder = slash < 0 ? "" : prefix.substring(0, slash + 1);
        String start = prefix.substring(slash + 1);
        var out = new ArrayList<String>();
        try (RevWalk walk = new RevWalk(repo)) {
            RevCommit commit = refs.resolve(walk, ref);
            if (commit == null) {
                return out;
            }
            ObjectReader reader = walk.getObjectReader();
            ObjectId tree = commit.getTree();
            if (!folder.isEmpty()) {
                String path = GitPaths.treePath(List.of(folder.substring(0, folder.length() - 1).split("/", -1)));
                if (path == null) {
                    return out;
                }
                try (TreeWalk at = TreeWalk.forPath(reader, path, commit.getTree())) {
                    if (at == null || at.getFileMode(0) != FileMode.TREE) {
                        return out;
                    }
                    tree = at.getObjectId(0);
                }
            }
            try (TreeWalk tw = new TreeWalk(reader)) {
                tw.addTree(tree);
                tw.setRecursive(false);
                while (tw.next() && out.size() < limit) {
                    String name = tw.getNameString();
                    if (!name.startsWith(start) || !GitPaths.isSafeSegment(name)) {
                        continue;
                    }
                    if (tw.getFileMode(0) == FileMode.TREE) {
                        out.add(folder + name + "/");
                    } else if (isServedMode(tw.getFileMode(0)) && GitPaths.uriOf(base.child(ref), folder + name) != null) {
                        out.add(folder + name);
                    }
                }
            }
        }
        return out;
    }

    // --- change events -------------------------------------------------------------------------

    @Override
    public boolean emitsChanges() {
        return true;
    }

    @Override
    public ChangeRegistration addChangeListener(ResourceChangeListener listener) {
        return listeners.add(listener);
    }

    private synchronized void startPolling() {
        watcher.reset();
        if (!pollInterval.isZero() && !scheduler.isShutdown()) {
            long ms = Math.max(50, pollInterval.toMillis());
            polling = scheduler.scheduleWithFixedDelay(watcher::poll, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void stopPolling() {
        if (polling != null) {
            polling.cancel(false);
            polling = null;
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        repo.close();
    }

    // --- cursors -------------------------------------------------------------------------------

    private static String encodeCursor(String ref, String path) {
        return CursorCodec.encode("g1", ref, path);
    }

    private static String[] decodeCursor(String cursor) {
        return CursorCodec.decode(cursor, "g1", 2).toArray(String[]::new);
    }
}
