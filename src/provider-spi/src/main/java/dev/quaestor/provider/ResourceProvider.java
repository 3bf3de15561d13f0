package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.util.List;
import java.util.Map;

/**
 * Serves the resources of one mount. Implementations know nothing of identities, policy, audit
 * or HTTP: every URI they receive is already canonical, within their mount and authorised.
 * They must confine themselves to their own storage whatever URI they are given.
 *
 * <p>Only {@link #list}, {@link #read} and {@link #templates} are required; change events and
 * {@link #close} have defaults for providers whose content never changes.
 */
public interface ResourceProvider extends AutoCloseable {

    /** A page of resources after {@code cursor} (null for the first page), at most {@code limit}. */
    Page<ResourceEntry> list(String cursor, int limit);

    /** The resource's bytes; throws {@link ResourceNotFoundException} if there is none. */
    ResourceContent read(CanonicalUri uri);

    /** URI templates this mount can serve (see {@link dev.quaestor.uri.UriTemplate}). */
    List<TemplateEntry> templates();

    /**
     * Values for {@code argument} of one of this provider's templates ({@code uriTemplate} is its
     * text as {@link #templates} gave it) that start with {@code prefix}, in the order a client
     * should offer them, at most {@code limit}. {@code resolved} holds values the client already
     * chose for other arguments of the template. For a {@code {+path}} argument a value ending in
     * {@code /} stands for a folder to descend into. Empty (the default) when the provider cannot
     * enumerate the values. The caller filters the values by policy; the provider must not.
     */
    default List<String> complete(String uriTemplate, String argument, String prefix, Map<String, String> resolved,
            int limit) {
        return List.of();
    }

    /** True if this provider reports changes to {@link #addChangeListener} listeners. */
    default boolean emitsChanges() {
        return false;
    }

    /**
     * Starts sending this mount's change events to {@code listener} until the registration is
     * closed. A provider may start its watcher with the first listener and stop it with the last.
     */
    default ChangeRegistration addChangeListener(ResourceChangeListener listener) {
        return ChangeRegistration.NONE;
    }

    /** Releases threads, watchers and handles; called once when the server stops. */
    @Override
    default void close() {
    }
}
