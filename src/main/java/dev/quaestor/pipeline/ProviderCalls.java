package dev.quaestor.pipeline;

import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceContent;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceProvider;
import dev.quaestor.provider.MountTable;
import dev.quaestor.uri.CanonicalUri;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Predicate;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Provider calls, time-boxed by SmallRye Fault Tolerance. The bound is
 * {@code quaestor.provider.timeout-ms} (wired to this class's {@code Timeout/value} in
 * application.properties); a call past it is interrupted and surfaces as a TimeoutException.
 */
@ApplicationScoped
@Timeout(10_000)
public class ProviderCalls {

    public ResourceContent read(ResourceProvider provider, CanonicalUri uri) {
        return provider.read(uri);
    }

    public Page<ResourceEntry> list(MountTable mounts, String cursor, int limit, int scanBudget,
            Predicate<ResourceEntry> visible) {
        return mounts.list(cursor, limit, scanBudget, visible);
    }
}
