package dev.quaestor.support;

import dev.quaestor.provider.Mount;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.ResourceProviderFactory;
import dev.quaestor.provider.TemplateEntry;
import dev.quaestor.uri.CanonicalUri;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A provider type that exists only in tests, picked up as a CDI bean like any third-party
 * provider: it hangs on purpose ({@code options.delay-ms}) so the time box can be tested.
 */
@ApplicationScoped
public class SlowProviderFactory implements ResourceProviderFactory {

    /** Reads begun (and now hanging), so a test can wait until one holds its slot. */
    public static final java.util.concurrent.atomic.AtomicInteger READS_STARTED = new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public String type() {
        return "test-slow";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        long delay = Long.parseLong(mount.setting("delay-ms").orElse("5000"));
        return new ResourceProvider() {
            @Override
            public Page<ResourceEntry> list(String cursor, int limit) {
                return new Page<>(List.of(), null);
            }

            @Override
            public ResourceContent read(CanonicalUri uri) {
                READS_STARTED.incrementAndGet();
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted");
                }
                byte[] bytes = "late".getBytes(StandardCharsets.UTF_8);
                return new ResourceContent(new ResourceEntry(uri, "slow", null, null, "text/plain", 4L, null), bytes, true);
            }

            @Override
            public List<TemplateEntry> templates() {
                return List.of();
            }
        };
    }
}
