package dev.quaestor.bundle;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.record.SealKey;
import java.util.List;

/**
 * What an evidence bundle holds: the records of a list of requests, or of the requests a search finds (each found
 * request with all its records), for a case or none. A case resolves to its request ids and is made the same way.
 * A bundle for a case has a key of its own, {@code caseSeal}: the records of its making seal the case's name under it
 * (a case's name is its title, which only its members may read), and its manifest gives it to the bundle's holders.
 */
public record BundleSelection(List<String> requestIds, AuditQuery search, String forCase, SealKey caseSeal) {

    /** At most this many requests in one bundle. */
    public static final int MAX_REQUESTS = 100;
    /** A search may find at most this many records (it is read in one page). */
    public static final int MAX_SEARCH_RECORDS = 1000;

    public BundleSelection {
        // Not List.copyOf, which throws on a null element before the check below can say what is wrong.
        requestIds = requestIds == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(requestIds));
        if (requestIds == null && search == null) {
            throw new IllegalArgumentException("give request ids or a search");
        }
        if (requestIds != null && search != null) {
            throw new IllegalArgumentException("give either request ids or a search, not both");
        }
        if (requestIds != null && (requestIds.isEmpty() || requestIds.size() > MAX_REQUESTS)) {
            throw new IllegalArgumentException("give 1 to " + MAX_REQUESTS + " request ids");
        }
        if (requestIds != null && requestIds.stream().anyMatch(id -> id == null || id.isBlank() || id.length() > 64)) {
            throw new IllegalArgumentException("a request id is 1 to 64 characters");
        }
        if (forCase != null && (forCase.isBlank() || forCase.length() > 200 || forCase.chars().anyMatch(c -> c < 0x20))) {
            throw new IllegalArgumentException("a case is named in 1 to 200 characters, on one line");
        }
        caseSeal = forCase == null ? null : caseSeal == null ? SealKey.fresh() : caseSeal;
    }

    public static BundleSelection ofRequests(List<String> requestIds, String forCase) {
        return new BundleSelection(requestIds, null, forCase, null);
    }

    /** As {@link #ofRequests(List, String)}, the case's name sealed under {@code caseSeal} (null: a new key). */
    public static BundleSelection ofRequests(List<String> requestIds, String forCase, SealKey caseSeal) {
        return new BundleSelection(requestIds, null, forCase, caseSeal);
    }

    public static BundleSelection ofSearch(AuditQuery search, String forCase, SealKey caseSeal) {
        return new BundleSelection(null, search, forCase, caseSeal);
    }

    public static BundleSelection ofSearch(AuditQuery search, String forCase) {
        return new BundleSelection(null, search, forCase, null);
    }
}
