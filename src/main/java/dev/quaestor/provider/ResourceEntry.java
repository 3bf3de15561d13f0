package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.time.Instant;

/** What a provider knows about one resource; any field but {@code uri} and {@code name} may be null. */
public record ResourceEntry(CanonicalUri uri, String name, String title, String description, String mimeType,
        Long size, Instant lastModified) {
}
