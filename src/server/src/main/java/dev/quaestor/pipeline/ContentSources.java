package dev.quaestor.pipeline;

import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.mounts.MountTable.Mounted;
import dev.quaestor.uri.CanonicalUri;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The content sources as the request path sees them: which mount holds a URI, and the calls into the mounts'
 * providers, each under its mount's guards ({@link ProviderCalls}). Every call names the subject it is made for (the
 * verified caller's): one subject may hold only its share of a mount's bulkhead.
 */
interface ContentSources {

    Optional<Mounted> resolve(CanonicalUri uri);

    List<Mounted> all();

    /** The shortest {@code ttl-ms} of all mounts: how long a result drawn from every mount may be reused. */
    long shortestTtlMs();

    /** See {@link ProviderCalls#read}. */
    OpenedContent read(String subject, Mounted mount, CanonicalUri uri, int bufferLimit);

    /** A listing across mounts; a mount left out goes to {@code skipped} with why. */
    Page<ResourceEntry> list(String subject, String cursor, int limit, int scanBudget, Predicate<ResourceEntry> visible,
            List<String> skipped);

    /** Candidate values for a template argument. */
    List<String> complete(String subject, Mounted mount, String template, String argument, String prefix,
            Map<String, String> resolved, int limit);
}
