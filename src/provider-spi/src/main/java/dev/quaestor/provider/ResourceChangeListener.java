package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;

/**
 * Receives a provider's change events. Calls arrive on the provider's own thread, may come in
 * bursts (one per file or path touched) and must return quickly; coalescing and delivery to
 * clients are the receiver's job.
 */
public interface ResourceChangeListener {

    /** The content (or metadata) of this resource changed, or it was deleted. */
    void updated(CanonicalUri uri);

    /** Resources were added to or removed from the mount's listing. */
    void listChanged();
}
