package dev.quaestor.audit;

import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.check.LogVerifier;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.prove.ProofBuilder;
import dev.quaestor.evidence.v1.V1Record;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Read side of the audit log for compliance staff: search with cursor paging, streamed exports
 * (JSON Lines in the evidence format, or CSV), and proofs of one request's records, all on the audit-read pool
 * ({@link AuditPools#READ}). Long reads (exports, the search export, verify) are fixed when they start and read a
 * page at a time, each page on a connection given back before its rows go out: memory stays flat however many
 * records there are, and a slow client holds no connection.
 */
@ApplicationScoped
public class AuditReader {

    /** Search criteria; null fields are not filtered. */
    public record Query(String subject, String client, String tenant, String uriPrefix, String action, String decision,
            String outcome, String kind, Instant from, Instant to, Long after, int limit) {
    }

    public record Page(List<Map<String, String>> records, String nextCursor) {
    }

    /** A request's proof file, or why there is none yet. */
    public record Proof(String file, int records, String unavailable) {
    }

    private static final int FETCH = 1000;
    /** Rows a paged read takes per connection. */
    private static final int PAGE = 1000;
    private final AgroalDataSource ds;
    private final AuditLog log;
    private final PinnedTsaRoots tsaRoots;

    AuditReader(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, AuditLog log, PinnedTsaRoots tsaRoots) {
        this.ds = ds;
        this.log = log;
        this.tsaRoots = tsaRoots;
    }

    public Page search(Query q) {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        where(q, log.hasher(), where, args);
        filter(where, args, "id > ?", q.after());
        int limit = Math.max(1, Math.min(q.limit(), 1000));
        String sql = "SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry" + where + " ORDER BY id LIMIT " + (limit + 1);
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            var out = new ArrayList<Map<String, String>>();
            long lastId = 0;
            boolean more = false;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (out.size() == limit) {
                        more = true;
                        break;
                    }
                    lastId = rs.getLong(1);
                    var record = new LinkedHashMap<String, String>();
                    record.put("id", Long.toString(lastId));
                    record.putAll(AuditRecords.fromRow(rs, 2));
                    out.add(record);
                }
            }
            return new Page(out, more ? Long.toString(lastId) : null);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * How many records a search matches, and how many events they stand for: one each, but a summary of refused
     * attempts ({@code ATTEMPT_SUMMARY}) stands for every refusal it counts. Counted over at most {@code cap} records
     * (the first by id), so that a search of the whole log stays cheap; {@code capped} says when there were more.
     */
    public record Totals(long records, long events, boolean capped) {
    }

    public Totals totals(Query q, int cap) {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        where(q, log.hasher(), where, args);
        // One more than the cap is read, to tell whether there were more; the events are those of the first cap.
        String sql = "SELECT count(*), coalesce(sum(CASE WHEN n > " + cap + " THEN 0 WHEN kind = 'ATTEMPT_SUMMARY'"
                + " AND event_count IS NOT NULL THEN event_count ELSE 1 END), 0) FROM (SELECT kind, event_count,"
                + " row_number() OVER (ORDER BY id) AS n FROM audit_entry" + where + " ORDER BY id LIMIT " + (cap + 1)
                + ") matched";
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long records = rs.getLong(1);
                return new Totals(Math.min(records, cap), rs.getLong(2), records > cap);
            }
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /** The search's filters (all but the cursor and limit) as SQL conditions on {@code audit_entry}. */
    private static void where(Query q, FieldHasher h, StringBuilder where, List<Object> args) {
        filter(where, args, "subject = ?", q.subject());
        filter(where, args, "client_id = ?", h == null ? q.client() : h.apply("client", q.client()));
        filter(where, args, "tenant = ?", h == null ? q.tenant() : h.apply("tenant", q.tenant()));
        filter(where, args, "action = ?", q.action());
        filter(where, args, "decision = ?", q.decision());
        filter(where, args, "outcome = ?", q.outcome());
        filter(where, args, "kind = ?", q.kind());
        if (q.uriPrefix() != null) {
            // A summary of refused attempts matches when a URI of its sample does (each line: "<count> <uri>").
            String escaped = q.uriPrefix().replace("!", "!!").replace("%", "!%").replace("_", "!_");
            where.append(" AND (uri LIKE ? ESCAPE '!' OR uris LIKE ? ESCAPE '!')");
            args.add(escaped + "%");
            args.add("% " + escaped + "%");
        }
        filter(where, args, "event_time >= ?", q.from() == null ? null : OffsetDateTime.ofInstant(q.from(), ZoneOffset.UTC));
        filter(where, args, "event_time < ?", q.to() == null ? null : OffsetDateTime.ofInstant(q.to(), ZoneOffset.UTC));
    }

    /**
     * Every record the search matches (cursor and limit ignored) among those written before the call, in the
     * order of their ids; with {@code wholeRequests}, every record of each request that has a matching record,
     * grouped by request (ordered by request id, then id), so that a request's records arrive together. Read a page
     * at a time, each on a connection given back before {@code out} sees its records.
     */
    public void stream(Query q, boolean wholeRequests, Consumer<Map<String, String>> out) {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        where(q, log.hasher(), where, args);
        boolean byRequest = wholeRequests && !args.isEmpty();
        try {
            // Fixed at the start: records written while the stream runs are not in it.
            long last = StoredLog.page(ds, "SELECT MAX(id) FROM audit_entry", List.of(), rs -> rs.getLong(1)).get(0);
            String cols = "SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry";
            String requestId = null;
            long after = 0;
            while (true) {
                String sql;
                var page = new ArrayList<Object>();
                if (!wholeRequests) {
                    sql = cols + where + " AND id > ? AND id <= ? ORDER BY id LIMIT " + PAGE;
                    page.addAll(args);
                    page.addAll(List.of(after, last));
                } else {
                    // By request, then id: the page after (requestId, after).
                    String next = requestId == null ? " AND id <= ?" : " AND id <= ? AND (request_id > ? OR (request_id = ? AND id > ?))";
                    if (byRequest) {
                        sql = cols + " WHERE request_id IN (SELECT request_id FROM audit_entry" + where + " AND id <= ?"
                                + (requestId == null ? "" : " AND request_id >= ?") + ")" + next + " ORDER BY request_id, id LIMIT " + PAGE;
                        page.addAll(args);
                        page.add(last);
                        if (requestId != null) {
                            page.add(requestId);
                        }
                    } else {
                        sql = cols + " WHERE 1=1" + next + " ORDER BY request_id, id LIMIT " + PAGE;
                    }
                    page.add(last);
                    if (requestId != null) {
                        page.addAll(List.of(requestId, requestId, after));
                    }
                }
                var rows = StoredLog.page(ds, sql, page, rs -> {
                    var record = AuditRecords.fromRow(rs, 2);
                    record.put("id", Long.toString(rs.getLong(1)));
                    return record;
                });
                rows.forEach(out);
                if (rows.size() < PAGE) {
                    return;
                }
                var end = rows.get(rows.size() - 1);
                after = Long.parseLong(end.get("id"));
                requestId = end.get("request");
            }
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }


    /** As {@link #stream(Query, boolean, Consumer)}, on a connection the caller owns; {@code h} may be null (no hashed fields). */
    public static void stream(Connection c, FieldHasher h, Query q, boolean wholeRequests, Consumer<Map<String, String>> out)
            throws SQLException {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        where(q, h, where, args);
        // Without filters every request is whole already: no need to look its records up again.
        String sql = wholeRequests && !args.isEmpty()
                ? "SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry WHERE request_id IN (SELECT request_id FROM audit_entry"
                        + where + ") ORDER BY request_id, id"
                : "SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry" + where
                        + (wholeRequests ? " ORDER BY request_id, id" : " ORDER BY id");
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false); // PostgreSQL streams through a cursor only inside a transaction
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setFetchSize(FETCH);
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var record = AuditRecords.fromRow(rs, 2);
                    record.put("id", Long.toString(rs.getLong(1)));
                    out.accept(record);
                }
            }
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** The records of one request, in the order they were written. */
    public List<Map<String, String>> requestRecords(String requestId) {
        return select("SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry WHERE request_id = ? ORDER BY id", requestId);
    }

    /** The record at {@code seq} of log {@code logId}, if the database holds it. */
    public Optional<Map<String, String>> recordAt(String logId, long seq) {
        var found = select("SELECT id, " + AuditRecords.COLUMN_LIST + " FROM audit_entry WHERE chain_id = ? AND seq = ?", logId, seq);
        return found.stream().findFirst();
    }

    /**
     * The last signed checkpoint of a log: its size (the seq it covers), when it was written, and its note (with its
     * time-stamp's line, if anchored).
     */
    public record LastCheckpoint(String log, long size, String signedAt, String note) {
    }

    /** Each log's last checkpoint, by log. */
    public List<LastCheckpoint> lastCheckpoints() {
        var out = new ArrayList<LastCheckpoint>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT k.chain_id, k.seq, k.signed_at, k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k JOIN (SELECT chain_id,"
                        + " MAX(seq) AS seq FROM audit_checkpoint GROUP BY chain_id) last ON last.chain_id = k.chain_id"
                        + " AND last.seq = k.seq " + StoredLog.ANCHORED + " ORDER BY k.chain_id")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LastCheckpoint(rs.getString(1), rs.getLong(2), rs.getString(3),
                            rs.getString(4) == null ? null : StoredLog.anchored(rs.getString(4), rs.getString(5))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    private List<Map<String, String>> select(String sql, Object... params) {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            var out = new ArrayList<Map<String, String>>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var record = new LinkedHashMap<String, String>();
                    record.put("id", Long.toString(rs.getLong(1)));
                    record.putAll(AuditRecords.fromRow(rs, 2));
                    out.add(record);
                }
            }
            return out;
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }


    /**
     * Writes the export (docs/audit-format.md, section 6) of the records in [from, to), or all: each log as it stood
     * when the export started (its records up to its last one then, its checkpoints up to its last one then), read
     * a page at a time with no connection held while the page is written out.
     */
    public void exportJsonl(Instant from, Instant to, OutputStream out) {
        Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        try {
            StoredLog.replay(ds, StoredLog.bounds(ds), from, to, new ExportLines(w));
            w.flush();
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** CSV of the records (header: the record fields and hash), by log and seq, fixed and paged as the export is. */
    public void exportCsv(Instant from, Instant to, OutputStream out) {
        Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        try {
            var csv = new ExportCsv(w, AuditRecords.exportedFields());
            StoredLog.replay(ds, StoredLog.bounds(ds), from, to, new dev.quaestor.evidence.ExportSink() {
                @Override
                public void record(dev.quaestor.evidence.CanonicalRecord record, String storedHash, long line) {
                    var fields = new LinkedHashMap<>(record.fields());
                    fields.put("hash", storedHash);
                    try {
                        csv.write(fields);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            csv.flush();
            w.flush();
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The proof file (docs/audit-format.md, section 4) of every record of a request: each record with
     * its inclusion path to the first anchored checkpoint of its log that covers it (else the latest), with its
     * time-stamp. Nothing of any other record is in it but hashes. A record not yet under a checkpoint has no
     * proof until the next one is signed.
     */
    public Proof proof(String requestId) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            var records = new ArrayList<Map<String, String>>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST
                    + " FROM audit_entry WHERE request_id = ? AND chain_id IS NOT NULL ORDER BY chain_id, seq")) {
                ps.setString(1, requestId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        records.add(AuditRecords.fromRow(rs, 1));
                    }
                }
            }
            if (records.isEmpty()) {
                return new Proof(null, 0, "no record has this request id");
            }
            var file = new StringBuilder();
            for (Map<String, String> r : records) {
                if (V1Record.VERSION.equals(r.get("v"))) {
                    return new Proof(null, records.size(), "the request's records are in format 1, which has no proofs of one record");
                }
                String logId = r.get("log");
                long seq = Long.parseLong(r.get("seq"));
                Optional<String[]> checkpoint = provingCheckpoint(c, logId, seq);
                if (checkpoint.isEmpty()) {
                    return new Proof(null, records.size(), "record " + seq + " of log " + logId
                            + " is not under a signed checkpoint yet; ask again in a few seconds");
                }
                long size = Long.parseLong(checkpoint.get()[0]);
                var path = new ProofBuilder(new TreeNodes(c, logId)).inclusion(seq - 1, size);
                file.append(new RecordProof(RecordFormat.canonical(r), seq - 1, path, checkpoint.get()[1]).format());
            }
            c.commit();
            return new Proof(file.toString(), records.size(), null);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * The consistency proof (docs/audit-format.md, section 5) between two checkpointed sizes of a log,
     * or empty if either size has no checkpoint.
     */
    public Optional<String> consistency(String logId, long from, long to) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            if (from > to || checkpointAt(c, logId, from).isEmpty() || checkpointAt(c, logId, to).isEmpty()) {
                return Optional.empty();
            }
            var sb = new StringBuilder("quaestor-consistency/v1\n").append(log.originOf(logId)).append('\n')
                    .append(from).append(' ').append(to).append('\n');
            for (byte[] h : new ProofBuilder(new TreeNodes(c, logId)).consistency(from, to)) {
                sb.append(Base64.getEncoder().encodeToString(h)).append('\n');
            }
            c.commit();
            return Optional.of(sb.toString());
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /** The signed note of a log's checkpoint at exactly {@code size} (with its time-stamp's line, if anchored). */
    public Optional<String> checkpointAt(String logId, long size) {
        try (Connection c = ds.getConnection()) {
            return checkpointAt(c, logId, size);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    private static Optional<String> checkpointAt(Connection c, String logId, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k "
                + StoredLog.ANCHORED + " WHERE k.chain_id = ? AND k.seq = ? AND k.note IS NOT NULL")) {
            ps.setString(1, logId);
            ps.setLong(2, size);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(StoredLog.anchored(rs.getString(1), rs.getString(2))) : Optional.empty();
            }
        }
    }

    /**
     * The format-2 checkpoint of the log to prove {@code seq} against: the first that covers it and is anchored (its
     * token's time is the closest bound on when the record existed), else the latest that covers it; its size and
     * its note, with its time-stamp's line if anchored.
     */
    private static Optional<String[]> provingCheckpoint(Connection c, String logId, long seq) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT k.seq, k.note, " + StoredLog.ANCHOR + " FROM audit_checkpoint k "
                + StoredLog.ANCHORED + " WHERE k.chain_id = ? AND k.seq >= ? AND k.note IS NOT NULL"
                + " ORDER BY CASE WHEN " + StoredLog.ANCHOR + " IS NULL THEN 1 ELSE 0 END,"
                + " CASE WHEN " + StoredLog.ANCHOR + " IS NULL THEN -k.seq ELSE k.seq END LIMIT 1")) {
            ps.setString(1, logId);
            ps.setLong(2, seq);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new String[] {Long.toString(rs.getLong(1)), StoredLog.anchored(rs.getString(2),
                        rs.getString(3))}) : Optional.empty();
            }
        }
    }

    /**
     * Verifies every log in the database with the offline verifier's own checks ({@link LogVerifier}),
     * trusting only the pinned keys and TSA roots (never one the database names), and this replica's log against
     * the size its writer knows it committed (records removed from the end).
     */
    public Report verify() {
        var v = new LogVerifier(TrustedKeys.of(log.trustedKeys(), List.of()), tsaRoots.check().orElse(null), false);
        // Read before the check is fixed, so that every record this replica had committed then is within it.
        long live = log.committedHead();
        try {
            StoredLog.replay(ds, StoredLog.bounds(ds), null, null, v);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
        Report report = v.finish();
        long stored = report.logs().stream().filter(l -> l.log().equals(log.chain())).mapToLong(Report.Summary::lastSeq)
                .findFirst().orElse(0L);
        boolean broken = report.problems().stream().anyMatch(p -> p.log().equals(log.chain()));
        if (stored < live && !broken) {
            var problems = new ArrayList<>(report.problems());
            problems.add(new Problem(log.chain(), stored + 1, 0, "this replica committed " + live
                    + " records to log " + log.chain() + " but the database ends at " + stored + ": records were removed from its end"));
            return new Report(report.logs(), List.copyOf(problems), report.warnings());
        }
        return report;
    }

    private static void filter(StringBuilder where, List<Object> args, String clause, Object value) {
        if (value != null) {
            where.append(" AND ").append(clause);
            args.add(value);
        }
    }
}
