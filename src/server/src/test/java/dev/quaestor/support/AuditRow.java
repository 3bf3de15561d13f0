package dev.quaestor.support;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.Arc;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * One stored audit record as tests read it back, straight from {@code audit_entry} through the
 * application's own datasource (inside a {@code @QuarkusTest}): {@code where} is SQL over the
 * table's columns, with {@code ?} parameters (an {@link Instant} is bound as a UTC timestamp).
 */
public final class AuditRow {

    public final Long id;
    public final Instant time;
    public final String requestId;
    public final String kind;
    public final String sessionId;
    public final String subject;
    public final String client;
    public final String tenant;
    public final String roles;
    public final String sourceIp;
    public final String userAgent;
    public final String method;
    public final String action;
    public final String uri;
    public final String decision;
    public final String rules;
    public final String policyRevision;
    public final String outcome;
    public final Integer errorCode;
    public final Long bytes;
    public final Integer items;
    public final String contentSha256;
    public final Long latencyMicros;
    public final String detail;
    public final String chainId;
    public final Long seq;
    public final String protocol;
    public final String cacheScope;
    public final String correlation;
    public final String clientInfo;
    public final Long eventCount;
    public final Instant firstTime;
    public final Instant lastTime;
    /** A summary's URIs, one per line as {@code <count> <uri>}. */
    public final String uris;
    public final Long urisMore;
    public final String format;

    private AuditRow(ResultSet rs) throws SQLException {
        id = rs.getObject("id", Long.class);
        time = rs.getObject("event_time", OffsetDateTime.class).toInstant();
        requestId = rs.getString("request_id");
        kind = rs.getString("kind");
        sessionId = rs.getString("session_id");
        subject = rs.getString("subject");
        client = rs.getString("client_id");
        tenant = rs.getString("tenant");
        roles = rs.getString("roles");
        sourceIp = rs.getString("source_ip");
        userAgent = rs.getString("user_agent");
        method = rs.getString("method");
        action = rs.getString("action");
        uri = rs.getString("uri");
        decision = rs.getString("decision");
        rules = rs.getString("rules");
        policyRevision = rs.getString("policy_revision");
        outcome = rs.getString("outcome");
        errorCode = rs.getObject("error_code", Integer.class);
        bytes = rs.getObject("bytes", Long.class);
        items = rs.getObject("item_count", Integer.class);
        contentSha256 = rs.getString("content_sha256");
        latencyMicros = rs.getObject("latency_us", Long.class);
        detail = rs.getString("detail");
        chainId = rs.getString("chain_id");
        seq = rs.getObject("seq", Long.class);
        protocol = rs.getString("protocol");
        cacheScope = rs.getString("cache_scope");
        correlation = rs.getString("correlation");
        clientInfo = rs.getString("client_info");
        eventCount = rs.getObject("event_count", Long.class);
        OffsetDateTime f = rs.getObject("first_time", OffsetDateTime.class);
        firstTime = f == null ? null : f.toInstant();
        OffsetDateTime l = rs.getObject("last_time", OffsetDateTime.class);
        lastTime = l == null ? null : l.toInstant();
        uris = rs.getString("uris");
        urisMore = rs.getObject("uris_more", Long.class);
        format = rs.getString("format");
    }

    /** A summary's URIs and how many of its events named each ({@link #uris}), in the order they were kept. */
    public java.util.Map<String, Long> uriCounts() {
        var out = new java.util.LinkedHashMap<String, Long>();
        if (uris != null) {
            for (String line : uris.split("\n")) {
                int space = line.indexOf(' ');
                out.put(line.substring(space + 1), Long.parseLong(line.substring(0, space)));
            }
        }
        return out;
    }

    /** The records matching {@code where} (which may end in {@code ORDER BY}). */
    public static List<AuditRow> list(String where, Object... params) {
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps = bind(c.prepareStatement("SELECT * FROM audit_entry WHERE " + where), params);
                ResultSet rs = ps.executeQuery()) {
            var out = new ArrayList<AuditRow>();
            while (rs.next()) {
                out.add(new AuditRow(rs));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("reading audit_entry WHERE " + where, e);
        }
    }

    /** The first record matching {@code where}, or null. */
    public static AuditRow first(String where, Object... params) {
        List<AuditRow> rows = list(where, params);
        return rows.isEmpty() ? null : rows.get(0);
    }

    public static long count(String where, Object... params) {
        try (Connection c = dataSource().getConnection();
                PreparedStatement ps = bind(c.prepareStatement("SELECT COUNT(*) FROM audit_entry WHERE " + where), params);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("counting audit_entry WHERE " + where, e);
        }
    }

    private static PreparedStatement bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            ps.setObject(i + 1, p instanceof Instant t ? t.atOffset(ZoneOffset.UTC) : p);
        }
        return ps;
    }

    private static AgroalDataSource dataSource() {
        return Arc.container().instance(AgroalDataSource.class).get();
    }

    @Override
    public String toString() {
        return kind + " " + requestId + " " + method + " " + uri + " " + decision + "/" + outcome;
    }
}
