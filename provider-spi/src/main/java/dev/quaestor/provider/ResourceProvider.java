package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.util.List;

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
