package dev.quaestor.provider;

import dev.quaestor.uri.CanonicalUri;
import java.util.List;

/**
 * Serves the resources of one mount. Implementations know nothing of identities, policy, audit
 * or HTTP: every URI they receive is already canonical, within their mount and authorised.
 * They must confine themselves to their own storage whatever URI they are given.
 */
public interface ResourceProvider {

    /** A page of resources after {@code cursor} (null for the first page), at most {@code limit}. */
    Page<ResourceEntry> list(String cursor, int limit);

    /** The resource's bytes; throws {@link ResourceNotFoundException} if there is none. */
    ResourceContent read(CanonicalUri uri);

    /** URI templates this mount can serve. */
    List<TemplateEntry> templates();
}
