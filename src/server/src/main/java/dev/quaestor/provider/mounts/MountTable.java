package dev.quaestor.provider.mounts;

import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The configured mounts and their providers, created at start-up (a bad mount stops start-up).
 * Resolves a canonical URI to the mount that owns it (the longest matching prefix) and lists
 * across all mounts with one opaque cursor.
 */
@Startup
@ApplicationScoped
public class MountTable {

    private static final Logger LOG = Logger.getLogger(MountTable.class);

    /** A mount and its provider. */
    public record Mounted(Mount mount, ResourceProvider provider, boolean remote) {

        /** {@code quaestor.mounts.<name>.ttl-ms}: how long a client may reuse a result from this mount. */
        public long ttlMs() {
            return mount.longSetting("ttl-ms", 0);
        }
    }

    /** The shortest {@link Mounted#ttlMs} of all mounts: what a result drawn from any of them may promise. */
    public long shortestTtlMs() {
        long min = Long.MAX_VALUE;
        for (Mounted m : mounts) {
            min = Math.min(min, m.ttlMs());
        }
        return mounts.isEmpty() ? 0 : min;
    }

    /** How one page is fetched from one mount's provider (the pipeline wraps it in its guards). */
    @FunctionalInterface
    public interface PageFetcher {
        Page<ResourceEntry> fetch(Mounted mount, String cursor, int limit);
    }

    private final List<Mounted> mounts;          // by name, the listing order
    private final List<Mounted> byPrefixLength;  // longest prefix first, for resolution

    MountTable(MountsConfig config, Instance<ResourceProviderFactory> factories) {
        Map<String, ResourceProviderFactory> types = new HashMap<>();
        for (ResourceProviderFactory f : factories) {
            types.put(f.type(), f);
        }
        var list = new ArrayList<Mounted>();
        for (var e : new TreeMap<>(config.mounts()).entrySet()) {
            var c = e.getValue();
            ResourceProviderFactory factory = types.get(c.provider());
            if (factory == null) {
                throw new IllegalArgumentException("mount '" + e.getKey() + "': unknown provider '" + c.provider()
                        + "' (available: " + String.join(", ", new TreeMap<>(types).keySet()) + ")");
            }
            var settings = new HashMap<>(c.options());
            c.root().ifPresent(v -> settings.put("root", v));
            c.file().ifPresent(v -> settings.put("file", v));
            c.repository().ifPresent(v -> settings.put("repository", v));
            settings.put("max-bytes", Long.toString(c.maxBytes()));
            // ttl-ms, max-bytes and the rest are in range: the start checked them first (MountsConfig#checkRanges)
            settings.put("ttl-ms", Long.toString(c.ttlMs()));
            CanonicalUri prefix = UriCanonicalizer.canonicalize(c.uri());
            var mount = new Mount(e.getKey(), c.provider(), prefix, c.uri(), settings);
            list.add(new Mounted(mount, factory.create(mount), factory.remote()));
            LOG.infof("mount %s: %s -> %s", e.getKey(), c.uri(), c.provider());
        }
        this.mounts = List.copyOf(list);
        this.byPrefixLength = list.stream()
                .sorted(Comparator.comparingInt((Mounted m) -> depth(m.mount().prefix())).reversed())
                .toList();
    }

    /** Stops the providers' watchers and releases their handles. */
    @PreDestroy
    void close() {
        for (Mounted m : mounts) {
            try {
                m.provider().close();
            } catch (RuntimeException e) {
                LOG.warnf(e, "mount %s: close failed", m.mount().name());
            }
        }
    }

    private static int depth(CanonicalUri u) {
        return (u.authority().isEmpty() ? 0 : 1) + u.segments().size();
    }

    public List<Mounted> all() {
        return mounts;
    }

    public Optional<Mounted> resolve(CanonicalUri uri) {
        for (Mounted m : byPrefixLength) {
            if (uri.isWithin(m.mount().prefix())) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * Up to {@code limit} visible entries across mounts, starting at {@code cursor}, each provider page
     * fetched through {@code fetcher}. Entries the predicate rejects are skipped without counting; at
     * most {@code scanBudget} entries are examined per call (the providers are asked for no more than that in all, at
     * most one page of each mount), so a caller who may see little cannot make one call walk more than one budget.
     */
    public Page<ResourceEntry> list(String cursor, int limit, int scanBudget, Predicate<ResourceEntry> visible,
            PageFetcher fetcher) {
        int mountIndex = 0;
        String inner = null;
        if (cursor != null) {
            String[] parts = decode(cursor);
            mountIndex = indexOf(parts[0]);
            inner = parts[1].isEmpty() ? null : parts[1];
        }
        var out = new ArrayList<ResourceEntry>(limit);
        int scanned = 0;
        int budget = Math.max(limit, scanBudget);
        while (mountIndex < mounts.size()) {
            Mounted m = mounts.get(mountIndex);
            int want = Math.max(1, Math.min(limit - out.size(), budget - scanned));
            Page<ResourceEntry> page = fetcher.fetch(m, inner, want);
            for (ResourceEntry e : page.items()) {
                scanned++;
                if (visible.test(e)) {
                    out.add(e);
                }
            }
            inner = page.nextCursor();
            if (inner == null) {
                mountIndex++;
            }
            if (out.size() >= limit || scanned >= budget) {
                break;
            }
        }
        String next = mountIndex < mounts.size() ? encode(mounts.get(mountIndex).mount().name(), inner) : null;
        return new Page<>(out, next);
    }

    private int indexOf(String name) {
        for (int i = 0; i < mounts.size(); i++) {
            if (mounts.get(i).mount().name().equals(name)) {
                return i;
            }
        }
        throw new InvalidCursorException();
    }

    private static String encode(String mount, String inner) {
        String raw = "v1\u0000" + mount + "\u0000" + (inner == null ? "" : inner);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decode(String cursor) {
        try {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = raw.split("\u0000", -1);
            if (parts.length != 3 || !parts[0].equals("v1")) {
                throw new InvalidCursorException();
            }
            return new String[] {parts[1], parts[2]};
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException();
        }
    }
}
