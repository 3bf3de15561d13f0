package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.LiveLog;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import java.util.Optional;

/**
 * Searches of the audit log for compliance staff, on the audit-read pool ({@link AuditPools#READ}): a page of
 * matching records at a time (cursor paging by row id), how many a search matches, and the records of one request or
 * at one log position.
 */
@ApplicationScoped
public class AuditSearch {

    public record Page(List<AuditRow> records, String nextCursor) {
    }

    /**
     * How many records a search matches, and how many events they stand for: one each, but a summary of refused
     * attempts ({@code ATTEMPT_SUMMARY}) stands for every refusal it counts. Counted over at most {@code cap} records
     * (the first by id), so that a search of the whole log stays cheap; {@code capped} says when there were more.
     */
    public record Totals(long records, long events, boolean capped) {
    }

    /**
     * A page of a search in the order asked for, and whether the search has records before its first and after its
     * last (in that order).
     */
    public record Window(List<AuditRow> records, boolean earlier, boolean later) {
    }

    /** The most records a page holds. */
    public static final int MAX_PAGE = 1000;

    static final String SELECT = "SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry";

    private final DataSource ds;
    private final Supplier<FieldHasher> hasher;

    @Inject
    AuditSearch(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log) {
        this(ds, log::hasher);
    }

    /** Over any database holding the log, its hashed fields stored as {@code hasher} says (tests at volume). */
    AuditSearch(DataSource ds, Supplier<FieldHasher> hasher) {
        this.ds = ds;
        this.hasher = hasher;
    }

    public Page search(AuditQuery q) {
        var where = q.where(hasher.get());
        var args = new ArrayList<>(where.args());
        if (q.after() != null) {
            args.add(q.after());
        }
        int limit = Math.max(1, Math.min(q.limit(), MAX_PAGE));
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(pageSql(where, q.after() != null, limit))) {
            bind(ps, args);
            var out = new ArrayList<AuditRow>();
            boolean more = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (out.size() == limit) {
                        more = true;
                        break;
                    }
                    out.add(AuditRow.read(rs));
                }
            }
            return new Page(out, more ? out.get(out.size() - 1).id().toString() : null);
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /** One page of the search, in the paging's order, from where it says; the query's own cursor and limit are not used. */
    public Window window(AuditQuery q, SearchPaging p) {
        var where = q.where(hasher.get());
        var args = new ArrayList<>(where.args());
        if (p.from() == SearchPaging.From.AFTER || p.from() == SearchPaging.From.BEFORE) {
            args.add(p.id());
        }
        String sql = SELECT + where.sql() + p.boundSql() + p.orderSql() + " LIMIT " + (p.size() + 1);
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            var out = new ArrayList<AuditRow>();
            boolean more = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (out.size() == p.size()) {
                        more = true;
                        break;
                    }
                    out.add(AuditRow.read(rs));
                }
            }
            if (p.backwards()) {
                Collections.reverse(out);
                // Read backwards: what was beyond the page is before it; a page before a record has that record after it.
                return new Window(out, more, p.from() == SearchPaging.From.BEFORE);
            }
            return new Window(out, p.from() == SearchPaging.From.AFTER, more);
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /** The statement of one page: the query's conditions, after the cursor if there is one, one row more than the page. */
    static String pageSql(AuditQuery.Where where, boolean afterCursor, int limit) {
        return SELECT + where.sql() + (afterCursor ? " AND id > ?" : "") + " ORDER BY id LIMIT " + (limit + 1);
    }

    public Totals totals(AuditQuery q, int cap) {
        var where = q.where(hasher.get());
        // One more than the cap is read, to tell whether there were more; the events are those of the first cap.
        String sql = "SELECT count(*), coalesce(sum(CASE WHEN n > " + cap + " THEN 0 WHEN kind = 'ATTEMPT_SUMMARY'"
                + " AND event_count IS NOT NULL THEN event_count ELSE 1 END), 0) FROM (SELECT kind, event_count,"
                + " row_number() OVER (ORDER BY id) AS n FROM audit_entry" + where.sql() + " ORDER BY id LIMIT " + (cap + 1)
                + ") matched";
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, where.args());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long records = rs.getLong(1);
                return new Totals(Math.min(records, cap), rs.getLong(2), records > cap);
            }
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /**
     * Records written by staff calls ({@code kinds}, such as {@code ADMIN} and {@code AUDIT_READ}) under {@code uriPrefix}
     * whose method starts with one of {@code methodPrefixes}, newest first: at most {@code limit}, before the row id
     * {@code before} if given; {@code nextCursor} (the last row's id, for the next {@code before}) when there are older.
     * What a client asks for cannot be among them: a client's records are of other kinds, whatever uri it names.
     */
    public Page staffRecordsNewestFirst(String uriPrefix, List<String> kinds, List<String> methodPrefixes, Long before, int limit) {
        var args = new ArrayList<Object>();
        var sql = new StringBuilder(SELECT).append(" WHERE uri LIKE ? ESCAPE '!'");
        args.add(likePrefix(uriPrefix));
        sql.append(" AND kind IN (").append(String.join(", ", Collections.nCopies(kinds.size(), "?"))).append(")");
        args.addAll(kinds);
        sql.append(" AND (").append(String.join(" OR ", Collections.nCopies(methodPrefixes.size(), "method LIKE ? ESCAPE '!'"))).append(")");
        methodPrefixes.forEach(m -> args.add(likePrefix(m)));
        if (before != null) {
            sql.append(" AND id < ?");
            args.add(before);
        }
        int n = Math.max(1, Math.min(limit, MAX_PAGE));
        sql.append(" ORDER BY id DESC LIMIT ").append(n + 1);
        var rows = select(sql.toString(), args.toArray());
        boolean more = rows.size() > n;
        var page = more ? rows.subList(0, n) : rows;
        return new Page(List.copyOf(page), more ? page.get(n - 1).id().toString() : null);
    }

    /**
     * The records of the requests {@code requestIds}, in the order they were written: at most {@code maxRows} in one
     * query, whatever the number of requests; {@code nextCursor} is set when there were more.
     */
    public Page recordsOfRequests(List<String> requestIds, int maxRows) {
        if (requestIds.isEmpty()) {
            return new Page(List.of(), null);
        }
        String in = String.join(", ", Collections.nCopies(requestIds.size(), "?"));
        var rows = select(SELECT + " WHERE request_id IN (" + in + ") ORDER BY id LIMIT " + (maxRows + 1), requestIds.toArray());
        boolean more = rows.size() > maxRows;
        var page = more ? rows.subList(0, maxRows) : rows;
        return new Page(List.copyOf(page), more ? page.get(maxRows - 1).id().toString() : null);
    }

    private static String likePrefix(String prefix) {
        return prefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
    }

    /** The records of one request, in the order they were written. */
    public List<AuditRow> requestRecords(String requestId) {
        return select(SELECT + " WHERE request_id = ? ORDER BY id", requestId);
    }

    /** The record at {@code seq} of log {@code logId}, if the database holds it. */
    public Optional<AuditRow> recordAt(String logId, long seq) {
        return select(SELECT + " WHERE chain_id = ? AND seq = ?", logId, seq).stream().findFirst();
    }

    private List<AuditRow> select(String sql, Object... params) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, List.of(params));
            var out = new ArrayList<AuditRow>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(AuditRow.read(rs));
                }
            }
            return out;
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setObject(i + 1, args.get(i));
        }
    }
}
