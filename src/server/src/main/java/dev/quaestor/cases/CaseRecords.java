package dev.quaestor.cases;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.AuditSearch;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The records a case is about, counted from the audit log: each request with its records, each search with how many
 * records and events it matches (counted up to {@link #COUNT_CAP}); and the case's history, which is the audit
 * records written under its uri.
 */
@ApplicationScoped
public class CaseRecords {

    /** Records a search is counted up to; past it the count says "at least". */
    public static final int COUNT_CAP = 100_000;
    /** Records of a case's history read at most, oldest first. */
    public static final int HISTORY_LIMIT = 1000;

    @TemplateData
    public record RequestRecords(String requestId, List<AuditRow> records) {

        public int count() {
            return records.size();
        }
    }

    @TemplateData
    public record SearchCount(long id, String name, String query, long records, long events, boolean capped) {
    }

    @TemplateData
    public record Counted(List<RequestRecords> requests, List<SearchCount> searches) {
    }

    private final AuditSearch search;

    CaseRecords(AuditSearch search) {
        this.search = search;
    }

    public Counted of(CaseView c) {
        var requests = c.requests().stream().map(r -> new RequestRecords(r.requestId(), search.requestRecords(r.requestId()))).toList();
        var searches = c.searches().stream().map(s -> {
            var totals = search.totals(SearchFilters.parse(s.query()).query(COUNT_CAP), COUNT_CAP);
            return new SearchCount(s.id(), s.name(), s.query(), totals.records(), totals.events(), totals.capped());
        }).toList();
        return new Counted(requests, searches);
    }

    /** The audit records of every change to the case (and every view of it), oldest first. */
    public List<AuditRow> history(long caseId) {
        return search.search(new AuditQuery(null, null, null, AuditCase.uriOf(caseId), null, null, null, null, null, null, null,
                HISTORY_LIMIT)).records();
    }

    /**
     * The requests a case's records belong to: its own requests, then those its searches find (each search read up to
     * {@code perSearch} records); throws {@link CaseRefusal} (400) when a search finds more.
     */
    public List<String> requestIds(CaseView c, int perSearch) {
        var ids = new LinkedHashSet<String>();
        c.requests().forEach(r -> ids.add(r.requestId()));
        for (var s : c.searches()) {
            var q = SearchFilters.parse(s.query()).query(perSearch);
            var page = search.search(q);
            if (page.nextCursor() != null) {
                throw CaseRefusal.invalid("the search '" + s.name() + "' finds more than " + perSearch + " records: narrow it");
            }
            page.records().stream().map(AuditRow::request).filter(Objects::nonNull).forEach(ids::add);
        }
        return List.copyOf(ids);
    }

    /** Whether the audit log holds any record of the request. */
    public boolean exists(String requestId) {
        return !search.requestRecords(requestId).isEmpty();
    }
}
