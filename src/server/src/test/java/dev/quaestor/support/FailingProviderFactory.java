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
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider type that exists only in tests and fails every read on purpose, as a remote backend
 * that has gone away would; it counts the reads that actually reached it.
 */
@ApplicationScoped
public class FailingProviderFactory implements ResourceProviderFactory {

    public static final AtomicInteger READS = new AtomicInteger();

    @Override
    public String type() {
        return "test-failing";
    }

    @Override
    public ResourceProvider create(Mount mount) {
        return new ResourceProvider() {
            @Override
            public Page<ResourceEntry> list(String cursor, int limit) {
                return new Page<>(List.of(), null);
            }

            @Override
            public ResourceContent read(CanonicalUri uri) {
                READS.incrementAndGet();
                throw new IllegalStateException("backend unreachable (on purpose)");
            }

            @Override
            public List<TemplateEntry> templates() {
                return List.of();
            }
        };
    }
}
