package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.LiveLog;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Every record a search matches, streamed for exports of a search and timelines, on the audit-read pool
 * ({@link AuditPools#READ}). Fixed when it starts and read a page at a time, each page on a connection given back
 * before its rows go out: memory stays flat however many records there are, and a slow client holds no connection.
 */
@ApplicationScoped
public class AuditStream {

    private static final int FETCH = 1000;
    /** Rows a paged read takes per connection. */
    private static final int PAGE = 1000;

    private final AgroalDataSource ds;
    private final LiveLog log;

    AuditStream(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log) {
        this.ds = ds;
        this.log = log;
    }

    /**
     * Every record the search matches (cursor and limit ignored) among those written before the call, in the
     * order of their ids; with {@code wholeRequests}, every record of each request that has a matching record,
     * grouped by request (ordered by request id, then id), so that a request's records arrive together. Read a page
     * at a time, each on a connection given back before {@code out} sees its records.
     */
    public void stream(AuditQuery q, boolean wholeRequests, Consumer<AuditRow> out) {
        var where = q.where(log.hasher());
        boolean byRequest = wholeRequests && where.filters();
        try {
            // Fixed at the start: records written while the stream runs are not in it.
            long last = StoredLog.page(ds, "SELECT MAX(id) FROM audit_entry", List.of(), rs -> rs.getLong(1)).get(0);
            String cols = AuditSearch.SELECT;
            String requestId = null;
            long after = 0;
            while (true) {
                String sql;
                var page = new ArrayList<Object>();
                if (!wholeRequests) {
                    sql = cols + where.sql() + " AND id > ? AND id <= ? ORDER BY id LIMIT " + PAGE;
                    page.addAll(where.args());
                    page.addAll(List.of(after, last));
                } else {
                    // By request, then id: the page after (requestId, after).
                    String next = requestId == null ? " AND id <= ?" : " AND id <= ? AND (request_id > ? OR (request_id = ? AND id > ?))";
                    if (byRequest) {
                        sql = cols + " WHERE request_id IN (SELECT request_id FROM audit_entry" + where.sql() + " AND id <= ?"
                                + (requestId == null ? "" : " AND request_id >= ?") + ")" + next + " ORDER BY request_id, id LIMIT " + PAGE;
                        page.addAll(where.args());
                        page.add(last);
                        if (requestId != null) {
                            page.add(requestId);
                        }
                    } else {
                        sql = cols + where.sql() + next + " ORDER BY request_id, id LIMIT " + PAGE;
                        page.addAll(where.args());
                    }
                    page.add(last);
                    if (requestId != null) {
                        page.addAll(List.of(requestId, requestId, after));
                    }
                }
                var rows = StoredLog.page(ds, sql, page, AuditRow::read);
                rows.forEach(out);
                if (rows.size() < PAGE) {
                    return;
                }
                var end = rows.get(rows.size() - 1);
                after = end.id();
                requestId = end.request();
            }
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /** As {@link #stream(AuditQuery, boolean, Consumer)}, on a connection the caller owns; {@code h} may be null (no hashed fields). */
    public static void stream(Connection c, FieldHasher h, AuditQuery q, boolean wholeRequests, Consumer<AuditRow> out)
            throws SQLException {
        var where = q.where(h);
        // Without filters every request is whole already: no need to look its records up again.
        String sql = wholeRequests && where.filters()
                ? AuditSearch.SELECT + " WHERE request_id IN (SELECT request_id FROM audit_entry" + where.sql() + ") ORDER BY request_id, id"
                : AuditSearch.SELECT + where.sql() + (wholeRequests ? " ORDER BY request_id, id" : " ORDER BY id");
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false); // PostgreSQL streams through a cursor only inside a transaction
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setFetchSize(FETCH);
            AuditSearch.bind(ps, where.args());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.accept(AuditRow.read(rs));
                }
            }
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
