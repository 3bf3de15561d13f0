package dev.quaestor.cases;

import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.record.AuditRow;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The records a case is about, read from the audit log at a bounded cost per view, however much the case holds: its
 * requests' records in one query of at most {@link #MAX_REQUEST_ROWS} rows; its first {@link #COUNTED_SEARCHES}
 * searches counted (each up to {@link #COUNT_CAP} records), any other counted one at a time on demand. And the case's
 * history: the records its own calls wrote under its uri, newest first, a page at a time. The callers hold a place for
 * a long read while they read ({@code LongReads}).
 */
@ApplicationScoped
public class CaseRecords {

    /** Records a search is counted up to; past it the count says "at least". */
    public static final int COUNT_CAP = 100_000;
    /** Searches counted in one view of a case; the others are counted one at a time, on demand. */
    public static final int COUNTED_SEARCHES = 10;
    /**
     * Searches a bundle of a case runs, as many as one view counts: a case with more is refused a bundle before any
     * search is run (each search is one statement within the audit query timeout, so a bundle's reading is bounded).
     */
    public static final int BUNDLED_SEARCHES = COUNTED_SEARCHES;
    /** Records of a case's requests read in one view (a case holds up to 1000 requests). */
    public static final int MAX_REQUEST_ROWS = 5000;
    /** Records of a case's history on one page, newest first. */
    public static final int HISTORY_PAGE = 200;

    /** The kinds and methods of the records a case's own calls write under its uri: its history is these and only these. */
    static final List<String> HISTORY_KINDS = List.of("ADMIN", "AUDIT_READ");
    static final List<String> HISTORY_METHODS = List.of("audit/cases/", "console/case", "console/bundle");

    @TemplateData
    public record RequestRecords(String requestId, List<AuditRow> records) {

        public int count() {
            return records.size();
        }
    }

    /** A search's count ({@code counted}); a search not counted in this view has 0s and {@code counted} false. */
    @TemplateData
    public record SearchCount(long id, String name, String query, long records, long events, boolean capped, boolean counted) {
    }

    /**
     * What one view read: each request with its records ({@code requestsComplete} false when the requests hold more
     * than {@link #MAX_REQUEST_ROWS} records, and the newest were not read), each search with its count or none.
     */
    @TemplateData
    public record Counted(List<RequestRecords> requests, boolean requestsComplete, List<SearchCount> searches) {

        /** Nothing read: for a caller who may not see what a case finds in the log. */
        public static final Counted NONE = new Counted(List.of(), true, List.of());

        public long searchesNotCounted() {
            return searches.stream().filter(s -> !s.counted()).count();
        }

        public int maxRequestRows() {
            return MAX_REQUEST_ROWS;
        }

        public int countedSearches() {
            return COUNTED_SEARCHES;
        }
    }

    /** A page of a case's history, newest first; {@code before} is where the next (older) page starts, null at the end. */
    @TemplateData
    public record History(List<AuditRow> records, boolean more, String before) {
    }

    private final AuditSearch search;

    CaseRecords(AuditSearch search) {
        this.search = search;
    }

    public Counted of(CaseView c) {
        var ids = c.requests().stream().map(CaseView.Request::requestId).toList();
        var page = search.recordsOfRequests(ids, MAX_REQUEST_ROWS);
        var byRequest = new LinkedHashMap<String, List<AuditRow>>();
        ids.forEach(id -> byRequest.put(id, new ArrayList<>()));
        page.records().forEach(r -> byRequest.computeIfPresent(r.request(), (k, rows) -> {
            rows.add(r);
            return rows;
        }));
        var requests = byRequest.entrySet().stream().map(e -> new RequestRecords(e.getKey(), List.copyOf(e.getValue()))).toList();
        var searches = new ArrayList<SearchCount>();
        for (var s : c.searches()) {
            searches.add(searches.size() < COUNTED_SEARCHES ? count(s) : new SearchCount(s.id(), s.name(), s.query(), 0, 0, false, false));
        }
        return new Counted(requests, page.nextCursor() == null, List.copyOf(searches));
    }

    /** The search {@code searchId} of the case; {@link CaseRefusal} (404) when the case has no such search. */
    public static CaseView.Search searchOf(CaseView c, long searchId) {
        return c.searches().stream().filter(s -> s.id() == searchId).findFirst()
                .orElseThrow(() -> new CaseRefusal(404, "not-found", "case " + c.id() + " has no search " + searchId));
    }

    /** The count of one search of a case (on demand). */
    public SearchCount count(CaseView.Search s) {
        var totals = search.totals(SearchFilters.parse(s.query()).query(COUNT_CAP), COUNT_CAP);
        return new SearchCount(s.id(), s.name(), s.query(), totals.records(), totals.events(), totals.capped(), true);
    }

    /**
     * A page of the case's history, newest first, before the cursor {@code before} (null: the newest): the records its
     * own calls wrote under its uri ({@code ADMIN} and {@code AUDIT_READ} records of the cases' methods), every change,
     * refusal and read. A client's records are never among them, whatever uri it asked for.
     */
    public History history(long caseId, String before) {
        return history(caseId, historyCursor(before));
    }

    /** As above, before the cursor {@code after} (null: the newest), read with {@link #historyCursor}. */
    public History history(long caseId, Long after) {
        var page = search.staffRecordsNewestFirst(AuditCase.uriOf(caseId), HISTORY_KINDS, HISTORY_METHODS, after, HISTORY_PAGE);
        return new History(page.records(), page.nextCursor() != null, page.nextCursor());
    }

    /** A history page's {@code before} as given (null or blank: the newest page); {@link CaseRefusal} (400) if it is not one. */
    public static Long historyCursor(String before) {
        if (before == null || before.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(before.strip());
        } catch (NumberFormatException e) {
            throw CaseRefusal.invalid("'before' is not a cursor of the case's history: " + before.strip());
        }
    }

    /**
     * The requests a case's records belong to: its own requests, then those its searches find (each search read up to
     * {@code perSearch} records), stopping as soon as there are more than {@code atMost} (the caller refuses that many);
     * throws {@link CaseRefusal} (400) when a search finds more than {@code perSearch}, and (409), before any search is
     * run, when the case has more than {@link #BUNDLED_SEARCHES} searches.
     */
    public List<String> requestIds(CaseView c, int perSearch, int atMost) {
        if (c.searches().size() > BUNDLED_SEARCHES) {
            throw CaseRefusal.conflict("case " + c.id() + " has " + c.searches().size() + " searches, more than the " + BUNDLED_SEARCHES
                    + " a bundle of a case runs: make bundles of its searches or requests instead");
        }
        var ids = new LinkedHashSet<String>();
        for (var r : c.requests()) {
            ids.add(r.requestId());
            if (ids.size() > atMost) {
                return List.copyOf(ids);
            }
        }
        int number = 0;
        for (var s : c.searches()) {
            number++;
            var q = SearchFilters.parse(s.query()).query(perSearch);
            var page = search.search(q);
            if (page.nextCursor() != null) {
                // By its place on the case, not its name: the refusal is on record, where a case's text is not.
                throw CaseRefusal.invalid("the case's search " + number + " of " + c.searches().size() + " finds more than "
                        + perSearch + " records: narrow it");
            }
            page.records().stream().map(AuditRow::request).filter(Objects::nonNull).forEach(ids::add);
            if (ids.size() > atMost) {
                return List.copyOf(ids);
            }
        }
        return List.copyOf(ids);
    }

    /** Whether the audit log holds any record of the request. */
    public boolean exists(String requestId) {
        return !search.requestRecords(requestId).isEmpty();
    }
}
