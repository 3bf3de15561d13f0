package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;

/**
 * Receives a provider's change events. Calls arrive on the provider's own thread, may come in
 * bursts (one per file or path touched) and must return quickly; coalescing and delivery to
 * clients are the receiver's job.
 *
 * <p>A change to the listing is reported entry by entry, with {@link #listChanged(CanonicalUri)}:
 * the server tells a client about it only if that client may list the entry, so a client never
 * learns of activity where a listing would show it nothing. A provider that cannot tell which
 * entries came or went calls {@link #listChanged()} instead, meaning "somewhere in the mount"; the
 * server then tells only clients who may list <em>every</em> URI of the mount (none of whose rules
 * denies or leaves out any part of it). Clients allowed only part of the mount hear nothing of such a
 * change, so a provider should name its entries whenever it can, and fall back to the mount-wide
 * form only when it cannot (an overflowing watch, a change too large to enumerate cheaply).
 */
public interface ResourceChangeListener {

    /** The content (or metadata) of this resource changed, or it was deleted. */
    void updated(CanonicalUri uri);

    /**
     * This entry was added to or removed from the mount's listing (created, deleted, or either side of a
     * rename). {@code entry} is a URI the provider serves, at or below its mount's prefix. The default treats it as
     * a change somewhere in the mount ({@link #listChanged()}), which never says more than the entry would.
     */
    default void listChanged(CanonicalUri entry) {
        listChanged();
    }

    /**
     * Entries were added to or removed from the mount's listing, somewhere the provider cannot name. Only clients who
     * may list the whole mount are told; prefer {@link #listChanged(CanonicalUri)}.
     */
    void listChanged();
}
