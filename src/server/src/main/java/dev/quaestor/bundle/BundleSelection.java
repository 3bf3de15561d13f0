package dev.quaestor.bundle;

import dev.quaestor.audit.read.AuditQuery;
import java.util.List;

/**
 * What an evidence bundle holds: the records of a list of requests, or of the requests a search finds (each found
 * request with all its records), for a case or none. A case resolves to its request ids and is made the same way.
 */
public record BundleSelection(List<String> requestIds, AuditQuery search, String forCase) {

    /** At most this many requests in one bundle. */
    public static final int MAX_REQUESTS = 100;
    /** A search may find at most this many records (it is read in one page). */
    public static final int MAX_SEARCH_RECORDS = 1000;

    public BundleSelection {
        requestIds = requestIds == null ? null : List.copyOf(requestIds);
        if ((requestIds == null) == (search == null)) {
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
    }

    public static BundleSelection ofRequests(List<String> requestIds, String forCase) {
        return new BundleSelection(requestIds, null, forCase);
    }

    public static BundleSelection ofSearch(AuditQuery search, String forCase) {
        return new BundleSelection(null, search, forCase);
    }
}
