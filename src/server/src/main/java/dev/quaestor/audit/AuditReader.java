package dev.quaestor.audit;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Read side of the audit log for compliance staff: search with cursor paging, streamed export
 * (JSON Lines with keys and checkpoints, or CSV), and online verification with the same
 * {@link ChainVerifier} the offline tool uses. Large reads stream from a database cursor, so
 * memory stays flat however many records there are.
 */
@ApplicationScoped
public class AuditReader {

    /** Search criteria; null fields are not filtered. */
    public record Query(String subject, String client, String tenant, String uriPrefix, String action, String decision,
            String outcome, String kind, Instant from, Instant to, Long after, int limit) {
    }

    public record Page(List<Map<String, String>> records, String nextCursor) {
    }

    private static final int FETCH = 1000;
    /** Where each chain starts after the owner archived its oldest records (README "Retention"). */
    private static final String ARCHIVE_MARKERS = "SELECT chain_id, seq, entry_hash, archived_at FROM audit_archive ORDER BY chain_id, seq";
    private final AgroalDataSource ds;
    private final AuditLog log;

    AuditReader(AgroalDataSource ds, AuditLog log) {
        this.ds = ds;
        this.log = log;
    }

    public Page search(Query q) {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        filter(where, args, "subject = ?", q.subject());
        FieldHasher h = log.hasher();
        filter(where, args, "client_id = ?", h.apply("client", q.client()));
        filter(where, args, "tenant = ?", h.apply("tenant", q.tenant()));
        filter(where, args, "action = ?", q.action());
        filter(where, args, "decision = ?", q.decision());
        filter(where, args, "outcome = ?", q.outcome());
        filter(where, args, "kind = ?", q.kind());
        if (q.uriPrefix() != null) {
            where.append(" AND uri LIKE ? ESCAPE '!'");
            args.add(q.uriPrefix().replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
        }
        filter(where, args, "event_time >= ?", q.from() == null ? null : OffsetDateTime.ofInstant(q.from(), ZoneOffset.UTC));
        filter(where, args, "event_time < ?", q.to() == null ? null : OffsetDateTime.ofInstant(q.to(), ZoneOffset.UTC));
        filter(where, args, "id > ?", q.after());
        int limit = Math.max(1, Math.min(q.limit(), 1000));
        String sql = "SELECT id, " + AuditRecords.COLUMNS + " FROM audit_entry" + where + " ORDER BY id LIMIT " + (limit + 1);
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
                    out.add(shifted(rs));
                }
            }
            return new Page(out, more ? Long.toString(lastId) : null);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /** Writes keys, checkpoints and records (by chain, in stored order) as JSON Lines. */
    public void exportJsonl(Instant from, Instant to, OutputStream out) {
        try (Connection c = ds.getConnection()) {
            writeJsonl(c, from, to, out);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /** The export itself, on a connection the caller owns (the benchmark uses it too). */
    static void writeJsonl(Connection c, Instant from, Instant to, OutputStream out) throws SQLException {
        try {
            c.setAutoCommit(false); // PostgreSQL streams with a cursor only inside a transaction
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            try (PreparedStatement ps = c.prepareStatement("SELECT key_id, public_key FROM audit_key ORDER BY key_id");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    w.write(json(Map.of("type", "key", "keyId", rs.getString(1), "publicKey", rs.getString(2)), List.of("type", "keyId", "publicKey")));
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT chain_id, seq, head_hash, signed_at, key_id, signature FROM audit_checkpoint ORDER BY chain_id, seq");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    var m = new HashMap<String, String>();
                    m.put("type", "checkpoint");
                    m.put("chain", rs.getString(1));
                    m.put("seq", Long.toString(rs.getLong(2)));
                    m.put("hash", rs.getString(3));
                    m.put("time", rs.getString(4));
                    m.put("keyId", rs.getString(5));
                    m.put("signature", rs.getString(6));
                    w.write(json(m, List.of("type", "chain", "seq", "hash", "time", "keyId", "signature")));
                }
            }
            try (PreparedStatement ps = c.prepareStatement(ARCHIVE_MARKERS); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    w.write(json(Map.of("type", "archive", "chain", rs.getString(1), "seq", Long.toString(rs.getLong(2)),
                            "hash", rs.getString(3), "archivedAt", rs.getObject(4, OffsetDateTime.class).toInstant().toString()),
                            List.of("type", "chain", "seq", "hash", "archivedAt")));
                }
            }
            var keys = new ArrayList<String>(ChainVerifier.FIELDS.size() + 2);
            keys.add("type");
            keys.addAll(ChainVerifier.FIELDS);
            keys.add("hash");
            forEachRecord(c, from, to, m -> {
                m.put("type", "record");
                try {
                    w.write(json(m, keys));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.flush();
            c.commit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** CSV of the records (header: the hashed fields and hash). */
    public void exportCsv(Instant from, Instant to, OutputStream out) {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            var cols = new ArrayList<>(ChainVerifier.FIELDS);
            cols.add("hash");
            w.write(String.join(",", cols) + "\r\n");
            forEachRecord(c, from, to, m -> {
                var sb = new StringBuilder(512);
                for (int i = 0; i < cols.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    String v = m.get(cols.get(i));
                    if (v != null) {
                        // Quote everything that could break a row, and defuse spreadsheet formulas.
                        String safe = !v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0 ? "'" + v : v;
                        sb.append('"').append(safe.replace("\"", "\"\"")).append('"');
                    }
                }
                sb.append("\r\n");
                try {
                    w.write(sb.toString());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.flush();
            c.commit();
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Verifies every chain and checkpoint in the database, and this replica's chain against its live head. */
    public ChainVerifier.Report verify() {
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            var trusted = new HashMap<String, java.security.PublicKey>();
            try (PreparedStatement ps = c.prepareStatement("SELECT key_id, public_key FROM audit_key");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    trusted.put(rs.getString(1), ChainVerifier.publicKey(rs.getString(2)));
                }
            }
            var v = new ChainVerifier(trusted, false);
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT chain_id, seq, head_hash, signed_at, key_id, signature FROM audit_checkpoint ORDER BY chain_id, seq");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    v.checkpoint(new ChainVerifier.Checkpoint(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6)), 0);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(ARCHIVE_MARKERS); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    v.archived(rs.getString(1), rs.getLong(2), rs.getString(3), 0);
                }
            }
            long[] position = {0};
            forEachRecord(c, null, null, m -> v.record(m, ++position[0]));
            c.commit();
            ChainVerifier.Report report = v.finish();
            long live = log.committedHead();
            var mine = report.chains().stream().filter(r -> r.chain().equals(log.chain())).findFirst();
            long stored = mine.map(ChainVerifier.ChainReport::headSeq).orElse(0L);
            boolean broken = report.problems().stream().anyMatch(p -> p.chain().equals(log.chain()));
            if (stored < live && !broken) {
                var problems = new ArrayList<>(report.problems());
                problems.add(new ChainVerifier.Problem(log.chain(), stored + 1, 0, "this replica committed up to seq " + live
                        + " but the database ends at seq " + stored + " (records truncated)"));
                return new ChainVerifier.Report(report.chains(), problems, report.warnings());
            }
            return report;
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    private static void forEachRecord(Connection c, Instant from, Instant to, java.util.function.Consumer<Map<String, String>> out)
            throws SQLException {
        var where = new StringBuilder(" WHERE chain_id IS NOT NULL");
        var args = new ArrayList<Object>();
        filter(where, args, "event_time >= ?", from == null ? null : OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
        filter(where, args, "event_time < ?", to == null ? null : OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
        try (PreparedStatement ps = c.prepareStatement("SELECT " + AuditRecords.COLUMNS + " FROM audit_entry" + where
                + " ORDER BY chain_id, id")) {
            ps.setFetchSize(FETCH);
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.accept(AuditRecords.fromRow(rs));
                }
            }
        }
    }

    /** A row selected as "id, COLUMNS" read as fields (id is the cursor, not a field). */
    private static Map<String, String> shifted(ResultSet rs) throws SQLException {
        var m = new HashMap<String, String>();
        m.put("id", Long.toString(rs.getLong(1)));
        var names = new ArrayList<String>(ChainVerifier.FIELDS);
        names.add("hash");
        // COLUMNS follow FIELDS' order; read them by position after the id.
        String[] cols = AuditRecords.COLUMNS.split(",\\s*");
        for (int i = 0; i < cols.length; i++) {
            Object v = rs.getObject(i + 2);
            m.put(label(cols[i]), v == null ? null : v instanceof OffsetDateTime t ? t.toInstant().toString() : v.toString());
        }
        return m;
    }

    private static String label(String column) {
        return switch (column) {
            case "format" -> "v";
            case "chain_id" -> "chain";
            case "prev_hash" -> "prev";
            case "event_time" -> "time";
            case "request_id" -> "request";
            case "session_id" -> "session";
            case "client_id" -> "client";
            case "source_ip" -> "ip";
            case "user_agent" -> "ua";
            case "policy_revision" -> "revision";
            case "error_code" -> "error";
            case "item_count" -> "items";
            case "content_sha256" -> "sha256";
            case "entry_hash" -> "hash";
            default -> column;
        };
    }

    private static void filter(StringBuilder where, List<Object> args, String clause, Object value) {
        if (value != null) {
            where.append(" AND ").append(clause);
            args.add(value);
        }
    }

    static String json(Map<String, String> m, List<String> order) {
        var sb = new StringBuilder(512).append('{');
        boolean first = true;
        for (String k : order) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append('"').append(k).append("\":");
            String v = m.get(k);
            if (v == null) {
                sb.append("null");
            } else {
                quote(v, sb);
            }
        }
        return sb.append("}\n").toString();
    }

    private static void quote(String v, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        sb.append('"');
    }
}
