package dev.quaestor.audit;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * Moves audit records between their three forms: {@link AuditEvent} (what the pipeline reports),
 * the {@link ChainVerifier#FIELDS} map (what is hashed and exported) and the {@code audit_entry}
 * row. Writer, online verifier and export all go through here, so they cannot disagree.
 */
final class AuditRecords {

    static final int MAX_TEXT = 2048;

    static final String COLUMNS = "format, chain_id, seq, prev_hash, event_time, request_id, kind, session_id, subject, "
            + "client_id, tenant, roles, source_ip, user_agent, method, action, uri, decision, rules, policy_revision, "
            + "outcome, error_code, bytes, item_count, content_sha256, latency_us, detail, entry_hash";

    static final String INSERT = "INSERT INTO audit_entry (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private AuditRecords() {
    }

    /** Timestamps are kept to the microsecond, the precision both databases store. */
    static Instant truncate(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    static Map<String, String> fields(AuditEvent e, String chain, long seq, String prev, Instant time) {
        return fields(e, chain, seq, prev, time, FieldHasher.none());
    }

    static Map<String, String> fields(AuditEvent e, String chain, long seq, String prev, Instant time, FieldHasher h) {
        var m = new HashMap<String, String>(40);
        m.put("v", ChainVerifier.FORMAT);
        m.put("chain", chain);
        m.put("seq", Long.toString(seq));
        m.put("prev", prev);
        m.put("time", time.toString());
        m.put("request", e.requestId());
        m.put("kind", e.kind().name());
        Caller c = e.caller();
        if (c != null) {
            m.put("session", h.apply("session", c.sessionId()));
            m.put("subject", cut(c.subject()));
            m.put("client", h.apply("client", cut(c.client())));
            m.put("tenant", h.apply("tenant", cut(c.tenant())));
            m.put("roles", c.roles().isEmpty() ? null : cut(String.join(",", c.roles())));
            m.put("ip", h.apply("ip", c.sourceIp()));
            m.put("ua", h.apply("ua", cut(c.userAgent())));
        }
        m.put("method", e.method());
        m.put("action", e.action());
        m.put("uri", e.uri() == null || e.uri().length() <= 4096 ? e.uri() : e.uri().substring(0, 4096));
        m.put("decision", e.decision());
        m.put("rules", e.rules().isEmpty() ? null : cut(String.join(",", e.rules())));
        m.put("revision", e.policyRevision());
        m.put("outcome", e.outcome());
        m.put("error", str(e.errorCode()));
        m.put("bytes", str(e.bytes()));
        m.put("items", str(e.items()));
        m.put("sha256", e.contentSha256());
        m.put("latency_us", str(e.latencyMicros()));
        m.put("detail", e.detail() == null || e.detail().length() <= 4096 ? e.detail() : e.detail().substring(0, 4096));
        return m;
    }

    static void bind(PreparedStatement ps, Map<String, String> f, Instant time, String hash) throws SQLException {
        ps.setString(1, f.get("v"));
        ps.setString(2, f.get("chain"));
        ps.setLong(3, Long.parseLong(f.get("seq")));
        ps.setString(4, f.get("prev"));
        ps.setObject(5, OffsetDateTime.ofInstant(time, ZoneOffset.UTC));
        ps.setString(6, f.get("request"));
        ps.setString(7, f.get("kind"));
        ps.setString(8, f.get("session"));
        ps.setString(9, f.get("subject"));
        ps.setString(10, f.get("client"));
        ps.setString(11, f.get("tenant"));
        ps.setString(12, f.get("roles"));
        ps.setString(13, f.get("ip"));
        ps.setString(14, f.get("ua"));
        ps.setString(15, f.get("method"));
        ps.setString(16, f.get("action"));
        ps.setString(17, f.get("uri"));
        ps.setString(18, f.get("decision"));
        ps.setString(19, f.get("rules"));
        ps.setString(20, f.get("revision"));
        ps.setString(21, f.get("outcome"));
        setInt(ps, 22, f.get("error"));
        setLong(ps, 23, f.get("bytes"));
        setInt(ps, 24, f.get("items"));
        ps.setString(25, f.get("sha256"));
        setLong(ps, 26, f.get("latency_us"));
        ps.setString(27, f.get("detail"));
        ps.setString(28, hash);
    }

    /** The hashed fields and the stored hash of a row selected with {@link #COLUMNS}. */
    static Map<String, String> fromRow(ResultSet rs) throws SQLException {
        var m = new HashMap<String, String>(40);
        m.put("v", rs.getString(1));
        m.put("chain", rs.getString(2));
        m.put("seq", Long.toString(rs.getLong(3)));
        m.put("prev", rs.getString(4));
        OffsetDateTime t = rs.getObject(5, OffsetDateTime.class);
        m.put("time", t == null ? null : t.toInstant().toString());
        String[] names = {"request", "kind", "session", "subject", "client", "tenant", "roles", "ip", "ua", "method",
                "action", "uri", "decision", "rules", "revision", "outcome", "error", "bytes", "items", "sha256",
                "latency_us", "detail", "hash"};
        for (int i = 0; i < names.length; i++) {
            m.put(names[i], rs.getString(6 + i));
        }
        return m;
    }

    static String cut(String s) {
        return s == null || s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    private static void setInt(PreparedStatement ps, int i, String v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setInt(i, Integer.parseInt(v));
        }
    }

    private static void setLong(PreparedStatement ps, int i, String v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.BIGINT);
        } else {
            ps.setLong(i, Long.parseLong(v));
        }
    }

}
