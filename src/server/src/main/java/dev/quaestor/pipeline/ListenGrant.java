package dev.quaestor.pipeline;

import java.util.List;

/**
 * What a {@code subscriptions/listen} was granted: the canonical URIs whose changes will be notified,
 * and whether changes to the resource list will be. Anything refused is simply absent.
 */
public record ListenGrant(List<String> resourceUris, boolean listChanged) {

    public ListenGrant {
        resourceUris = List.copyOf(resourceUris);
    }
}
