package dev.quaestor.audit;

import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.v1.V1Record;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Moves audit records between their three forms: {@link AuditEvent} (what the server reports), the
 * record's fields (what is hashed and exported, {@link RecordFormat}) and the {@code audit_entry} row.
 * Writer, reader, export and online verification all go through here, so they cannot disagree.
 */
final class AuditRecords {

    /** One record field and the column that stores it; text longer than {@code max} is cut to fit. */
    record Column(String field, String name, String sqlType, int max) {
        Column(String field, String name, String sqlType) {
            this(field, name, sqlType, 0);
        }
    }

    /** Every column of a record, version-3 fields first (in format order), then the stored hash and the v1 link. */
    static final List<Column> COLUMNS = List.of(
            new Column("v", "format", "varchar"), new Column("log", "chain_id", "varchar"), new Column("seq", "seq", "bigint"),
            new Column("time", "event_time", "timestamptz"), new Column("request", "request_id", "varchar", 64),
            new Column("kind", "kind", "varchar", 32), new Column("session", "session_id", "varchar", 128),
            new Column("correlation", "correlation", "varchar", 256), new Column("subject", "subject", "varchar", 2048),
            new Column("client", "client_id", "varchar", 2048), new Column("tenant", "tenant", "varchar", 2048),
            new Column("roles", "roles", "varchar", 2048), new Column("ip", "source_ip", "varchar", 128),
            new Column("ua", "user_agent", "varchar", 2048), new Column("client_info", "client_info", "varchar", 512),
            new Column("auth_context", "auth_context", "varchar", 512), new Column("protocol", "protocol", "varchar", 64),
            new Column("method", "method", "varchar", 64), new Column("action", "action", "varchar", 16),
            new Column("uri", "uri", "varchar", 4096), new Column("decision", "decision", "varchar", 8),
            new Column("rules", "rules", "varchar", 2048), new Column("revision", "policy_revision", "varchar", 64),
            new Column("outcome", "outcome", "varchar", 32), new Column("error", "error_code", "integer"),
            new Column("bytes", "bytes", "bigint"), new Column("items", "item_count", "integer"),
            new Column("sha256", "content_sha256", "varchar", 64), new Column("cache_scope", "cache_scope", "varchar", 16),
            new Column("latency_us", "latency_us", "bigint"), new Column("count", "event_count", "bigint"),
            new Column("first", "first_time", "timestamptz"), new Column("last", "last_time", "timestamptz"),
            new Column("uris", "uris", "varchar", UriTally.MAX_LENGTH), new Column("uris_more", "uris_more", "bigint"),
            new Column("detail", "detail", "varchar", 4096), new Column("hash", "entry_hash", "varchar"),
            new Column("prev", "prev_hash", "varchar"));

    /** The columns, comma-separated, in {@link #COLUMNS} order. */
    static final String COLUMN_LIST = String.join(", ", COLUMNS.stream().map(Column::name).toList());

    static final String INSERT = "INSERT INTO audit_entry (" + COLUMN_LIST + ") VALUES ("
            + String.join(",", COLUMNS.stream().map(c -> "?").toList()) + ")";

    private AuditRecords() {
    }

    /** Timestamps are kept to the microsecond, the precision both databases store. */
    static Instant truncate(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * The fields of an event at {@code seq} of {@code log}, in format version 2, or 3 when it has a summary's URIs;
     * absent values are left out.
     */
    static Map<String, String> fields(AuditEvent e, String log, long seq, Instant time, FieldHasher h) {
        var m = new HashMap<String, String>(48);
        m.put("v", e.uris() != null || e.urisMore() != null ? RecordFormat.V3 : RecordFormat.V2);
        m.put("log", log);
        m.put("seq", Long.toString(seq));
        m.put("time", time.toString());
        put(m, "request", e.requestId());
        put(m, "kind", e.kind().name());
        Caller c = e.caller();
        if (c != null) {
            put(m, "session", h.apply("session", c.sessionId()));
            put(m, "correlation", c.correlationId());
            put(m, "subject", c.subject());
            put(m, "client", h.apply("client", c.client()));
            put(m, "tenant", h.apply("tenant", c.tenant()));
            put(m, "roles", c.roles().isEmpty() ? null : String.join(",", c.roles()));
            put(m, "ip", h.apply("ip", c.sourceIp()));
            put(m, "ua", h.apply("ua", c.userAgent()));
            put(m, "client_info", c.clientInfo());
            put(m, "auth_context", c.authContext());
        }
        put(m, "protocol", e.protocol());
        put(m, "method", e.method());
        put(m, "action", e.action());
        put(m, "uri", e.uri());
        put(m, "decision", e.decision());
        put(m, "rules", e.rules().isEmpty() ? null : String.join(",", e.rules()));
        put(m, "revision", e.policyRevision());
        put(m, "outcome", e.outcome());
        put(m, "error", str(e.errorCode()));
        put(m, "bytes", str(e.bytes()));
        put(m, "items", str(e.items()));
        put(m, "sha256", e.contentSha256());
        put(m, "cache_scope", e.cacheScope());
        put(m, "latency_us", str(e.latencyMicros()));
        put(m, "count", str(e.count()));
        put(m, "first", e.first() == null ? null : truncate(e.first()).toString());
        put(m, "last", e.last() == null ? null : truncate(e.last()).toString());
        put(m, "uris", e.uris());
        put(m, "uris_more", str(e.urisMore()));
        put(m, "detail", e.detail());
        // Stored as text columns can hold it: cut to the column's width, and what a text column cannot hold
        // exactly written as an escape ({@link #storable}), so that one caller's bytes cannot keep anyone's
        // record from being committed, and the record still shows what was sent.
        for (Column col : COLUMNS) {
            String v = m.get(col.field());
            if (v != null) {
                v = storable(v);
                if (col.max() > 0 && v.length() > col.max()) {
                    v = v.substring(0, col.max());
                }
                m.put(col.field(), v);
            }
        }
        return m;
    }

    /**
     * The text as sent, with each character that UTF-8 text cannot hold exactly written as a backslash,
     * {@code u} and four upper-case hex digits: NUL, which PostgreSQL refuses in text and which would fail every record of the batch, and a
     * lone UTF-16 surrogate, which has no UTF-8 form and would otherwise be stored as a substituted {@code ?}.
     * Anything else, backslashes included, is kept as it is.
     */
    static String storable(String v) {
        int i = 0;
        while (i < v.length() && v.charAt(i) != 0 && !Character.isSurrogate(v.charAt(i))) {
            i++;
        }
        if (i == v.length()) {
            return v;
        }
        var out = new StringBuilder(v.length() + 16).append(v, 0, i);
        for (; i < v.length(); i++) {
            char c = v.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < v.length() && Character.isLowSurrogate(v.charAt(i + 1))) {
                out.append(c).append(v.charAt(++i));
            } else if (c == 0 || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Binds a version-2 or version-3 record and its leaf hash (hex) to {@link #INSERT}. */
    static void bind(PreparedStatement ps, Map<String, String> f, String hash) throws SQLException {
        int i = 1;
        for (Column c : COLUMNS) {
            String v = c.field().equals("hash") ? hash : f.get(c.field());
            switch (c.sqlType()) {
                case "bigint" -> {
                    if (v == null) {
                        ps.setNull(i, Types.BIGINT);
                    } else {
                        ps.setLong(i, Long.parseLong(v));
                    }
                }
                case "integer" -> {
                    if (v == null) {
                        ps.setNull(i, Types.INTEGER);
                    } else {
                        ps.setInt(i, Integer.parseInt(v));
                    }
                }
                case "timestamptz" -> ps.setObject(i, v == null ? null : OffsetDateTime.ofInstant(Instant.parse(v), ZoneOffset.UTC));
                default -> ps.setString(i, v);
            }
            i++;
        }
    }

    /**
     * The fields and stored hash ({@code hash}) of a row selected with {@link #COLUMN_LIST} starting at
     * column {@code first}. A version-1 row comes back under the version-1 names ({@code chain}, {@code prev}).
     */
    static Map<String, String> fromRow(ResultSet rs, int first) throws SQLException {
        var m = new HashMap<String, String>(48);
        int i = first;
        for (Column c : COLUMNS) {
            String v;
            if (c.sqlType().equals("timestamptz")) {
                OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
                v = t == null ? null : t.toInstant().toString();
            } else {
                v = rs.getString(i);
            }
            put(m, c.field(), v);
            i++;
        }
        if (V1Record.VERSION.equals(m.get("v"))) {
            m.put("chain", m.remove("log"));
        } else {
            m.remove("prev");
        }
        return m;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
