package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.time.Instant;

/**
 * What a provider knows about one resource; any field but {@code uri} and {@code name} may be null.
 * {@code lastModified} is sent as {@code annotations.lastModified}; {@code annotations} carries
 * the other MCP annotations (audience, priority).
 */
public record ResourceEntry(CanonicalUri uri, String name, String title, String description, String mimeType,
        Long size, Instant lastModified, ResourceAnnotations annotations) {

    /** An entry without audience or priority annotations (the form every provider used first). */
    public ResourceEntry(CanonicalUri uri, String name, String title, String description, String mimeType,
            Long size, Instant lastModified) {
        this(uri, name, title, description, mimeType, size, lastModified, null);
    }
}
