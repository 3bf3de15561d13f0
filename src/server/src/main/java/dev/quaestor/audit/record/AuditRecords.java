package dev.quaestor.audit.record;

import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.RecordFormat;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Moves audit records between their forms: {@link AuditEvent} (what the server reports), the record's text
 * ({@link RecordText}: what is hashed, stored and exported, {@link RecordFormat}) and the {@code audit_entry} row.
 * Writer, reader, export and online verification all go through here, so they cannot disagree.
 */
public final class AuditRecords {

    /** One column of {@code audit_entry}: the record field it stores (null: the stored hash or link), its SQL type; text longer than {@code max} is cut to fit. */
    public record Column(RecordField field, String name, String sqlType, int max) {
        Column(RecordField field, String name, String sqlType) {
            this(field, name, sqlType, 0);
        }
    }

    /**
     * Every column of a record: one per {@link RecordField}, in its order (so a field's column is at its ordinal), then
     * the stored hash and a version-1 record's link. The log is {@code chain_id} in the table.
     */
    public static final List<Column> COLUMNS = List.of(
            new Column(RecordField.V, "format", "varchar"), new Column(RecordField.LOG, "chain_id", "varchar"),
            new Column(RecordField.SEQ, "seq", "bigint"), new Column(RecordField.TIME, "event_time", "timestamptz"),
            new Column(RecordField.REQUEST, "request_id", "varchar", 64), new Column(RecordField.KIND, "kind", "varchar", 32),
            new Column(RecordField.SESSION, "session_id", "varchar", 128),
            new Column(RecordField.CORRELATION, "correlation", "varchar", 256),
            new Column(RecordField.SUBJECT, "subject", "varchar", 2048), new Column(RecordField.CLIENT, "client_id", "varchar", 2048),
            new Column(RecordField.TENANT, "tenant", "varchar", 2048), new Column(RecordField.ROLES, "roles", "varchar", 2048),
            new Column(RecordField.IP, "source_ip", "varchar", 128), new Column(RecordField.UA, "user_agent", "varchar", 2048),
            new Column(RecordField.CLIENT_INFO, "client_info", "varchar", 512),
            new Column(RecordField.AUTH_CONTEXT, "auth_context", "varchar", 512),
            new Column(RecordField.PROTOCOL, "protocol", "varchar", 64), new Column(RecordField.METHOD, "method", "varchar", 64),
            new Column(RecordField.ACTION, "action", "varchar", 16), new Column(RecordField.URI, "uri", "varchar", 4096),
            new Column(RecordField.DECISION, "decision", "varchar", 8), new Column(RecordField.RULES, "rules", "varchar", 2048),
            new Column(RecordField.REVISION, "policy_revision", "varchar", 64),
            new Column(RecordField.OUTCOME, "outcome", "varchar", 32), new Column(RecordField.ERROR, "error_code", "integer"),
            new Column(RecordField.BYTES, "bytes", "bigint"), new Column(RecordField.ITEMS, "item_count", "integer"),
            new Column(RecordField.SHA256, "content_sha256", "varchar", 64),
            new Column(RecordField.CACHE_SCOPE, "cache_scope", "varchar", 16),
            new Column(RecordField.LATENCY_US, "latency_us", "bigint"), new Column(RecordField.COUNT, "event_count", "bigint"),
            new Column(RecordField.FIRST, "first_time", "timestamptz"), new Column(RecordField.LAST, "last_time", "timestamptz"),
            new Column(RecordField.URIS, "uris", "varchar", UriTally.MAX_LENGTH),
            new Column(RecordField.URIS_MORE, "uris_more", "bigint"), new Column(RecordField.DETAIL, "detail", "varchar", 4096),
            new Column(null, "entry_hash", "varchar"), new Column(null, "prev_hash", "varchar"));

    /** Where the stored hash and a version-1 record's link are in {@link #COLUMNS}. */
    public static final int HASH = RecordField.values().length;
    public static final int PREV = HASH + 1;

    static {
        for (RecordField f : RecordField.values()) {
            if (COLUMNS.get(f.ordinal()).field() != f) {
                throw new IllegalStateException("audit_entry's columns are not in the record's field order at " + f);
            }
        }
    }

    /** Each field by its format name. */
    static final Map<String, RecordField> FIELD_BY_NAME = Arrays.stream(RecordField.values())
            .collect(Collectors.toUnmodifiableMap(RecordField::formatName, Function.identity()));

    /** The columns, comma-separated, in {@link #COLUMNS} order. */
    public static final String COLUMN_LIST = String.join(", ", COLUMNS.stream().map(Column::name).toList());

    public static final String INSERT = "INSERT INTO audit_entry (" + COLUMN_LIST + ") VALUES ("
            + String.join(",", COLUMNS.stream().map(c -> "?").toList()) + ")";

    private AuditRecords() {
    }

    /** Timestamps are kept to the microsecond, the precision both databases store. */
    public static Instant truncate(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS);
    }

    /**
     * The text of an event at {@code seq} of {@code log}, in format version 2, or 3 when it has a summary's URIs;
     * absent values are left null, and so is its hash, which is made from it.
     */
    public static RecordText text(AuditEvent e, String log, long seq, Instant time, FieldHasher h) {
        var v = new String[COLUMNS.size()];
        put(v, RecordField.V, e.uris() != null || e.urisMore() != null ? RecordFormat.V3 : RecordFormat.V2);
        put(v, RecordField.LOG, log);
        put(v, RecordField.SEQ, Long.toString(seq));
        put(v, RecordField.TIME, time.toString());
        put(v, RecordField.REQUEST, e.requestId());
        put(v, RecordField.KIND, e.kind().name());
        Caller c = e.caller();
        if (c != null) {
            put(v, RecordField.SESSION, h.apply("session", c.sessionId()));
            put(v, RecordField.CORRELATION, c.correlationId());
            put(v, RecordField.SUBJECT, c.subject());
            put(v, RecordField.CLIENT, h.apply("client", c.client()));
            put(v, RecordField.TENANT, h.apply("tenant", c.tenant()));
            put(v, RecordField.ROLES, c.roles().isEmpty() ? null : String.join(",", c.roles()));
            put(v, RecordField.IP, h.apply("ip", c.sourceIp()));
            put(v, RecordField.UA, h.apply("ua", c.userAgent()));
            put(v, RecordField.CLIENT_INFO, c.clientInfo());
            put(v, RecordField.AUTH_CONTEXT, c.authContext());
        }
        put(v, RecordField.PROTOCOL, e.protocol());
        put(v, RecordField.METHOD, e.method());
        put(v, RecordField.ACTION, e.action());
        put(v, RecordField.URI, e.uri());
        put(v, RecordField.DECISION, e.decision());
        put(v, RecordField.RULES, e.rules().isEmpty() ? null : String.join(",", e.rules()));
        put(v, RecordField.REVISION, e.policyRevision());
        put(v, RecordField.OUTCOME, e.outcome());
        put(v, RecordField.ERROR, str(e.errorCode()));
        put(v, RecordField.BYTES, str(e.bytes()));
        put(v, RecordField.ITEMS, str(e.items()));
        put(v, RecordField.SHA256, e.contentSha256());
        put(v, RecordField.CACHE_SCOPE, e.cacheScope());
        put(v, RecordField.LATENCY_US, str(e.latencyMicros()));
        put(v, RecordField.COUNT, str(e.count()));
        put(v, RecordField.FIRST, e.first() == null ? null : truncate(e.first()).toString());
        put(v, RecordField.LAST, e.last() == null ? null : truncate(e.last()).toString());
        put(v, RecordField.URIS, e.uris());
        put(v, RecordField.URIS_MORE, str(e.urisMore()));
        put(v, RecordField.DETAIL, e.detail());
        return new RecordText(v);
    }

    /** How a value cut to its column's width ends, so that the record never shows a cut value as the whole of it. */
    public static final String CUT = "… (cut)";

    /**
     * Stored as text columns can hold it: cut to the column's width (ending in {@link #CUT}, never inside a surrogate
     * pair), and what a text column cannot hold exactly written as an escape ({@link #storable}), so that one caller's
     * bytes cannot keep anyone's record from being committed, and the record still shows what was sent.
     */
    private static void put(String[] values, RecordField f, String v) {
        if (v != null) {
            v = storable(v);
            int max = width(f);
            if (max > CUT.length()) {
                v = cut(v, max);
            }
        }
        values[f.ordinal()] = v;
    }

    /** How many characters a field's text column holds; past it, a value is stored cut ({@link #CUT}). */
    public static int width(RecordField f) {
        return COLUMNS.get(f.ordinal()).max();
    }

    /** {@code v} if it has at most {@code max} characters, else its start ending in {@link #CUT}, never inside a surrogate pair. */
    public static String cut(String v, int max) {
        if (v == null || v.length() <= max) {
            return v;
        }
        int end = max - CUT.length();
        if (Character.isHighSurrogate(v.charAt(end - 1))) {
            end--;
        }
        return v.substring(0, end) + CUT;
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
    public static void bind(PreparedStatement ps, RecordText t, String hash) throws SQLException {
        for (int i = 0; i < COLUMNS.size(); i++) {
            String v = i == HASH ? hash : t.column(i);
            int p = i + 1;
            switch (COLUMNS.get(i).sqlType()) {
                case "bigint" -> {
                    if (v == null) {
                        ps.setNull(p, Types.BIGINT);
                    } else {
                        ps.setLong(p, Long.parseLong(v));
                    }
                }
                case "integer" -> {
                    if (v == null) {
                        ps.setNull(p, Types.INTEGER);
                    } else {
                        ps.setInt(p, Integer.parseInt(v));
                    }
                }
                case "timestamptz" -> ps.setObject(p, v == null ? null : OffsetDateTime.ofInstant(Instant.parse(v), ZoneOffset.UTC));
                default -> ps.setString(p, v);
            }
        }
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
