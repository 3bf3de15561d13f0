package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The distinct facts of the policy decisions recorded in a window, on the audit-read pool ({@link AuditPools#READ}):
 * one group per caller as recorded (subject, client, tenant, roles), action, URI, source address, hour, revision and
 * decision, with how many records it holds. Records that judged nothing are left out: those without an action, those
 * without a URI but listings (a listing of every mount names none), and allows without a deciding rule (requests that only narrow what is disclosed). No request id is read.
 */
@ApplicationScoped
public class DecisionFacts {

    /** One group of records alike in everything but their time within the hour and their request. */
    public record Group(String subject, String client, String tenant, String roles, String action, String uri, String ip,
            Instant hour, String revision, String decision, long count) {
    }

    private static final String HOUR = "FLOOR(EXTRACT(EPOCH FROM event_time) / 3600)";
    private static final String JUDGED = " FROM audit_entry WHERE kind = 'DECISION' AND event_time >= ? AND event_time < ?"
            + " AND action IS NOT NULL AND (uri IS NOT NULL OR decision = 'FILTER') AND decision IN ('ALLOW', 'DENY', 'FILTER')"
            + " AND NOT (decision = 'ALLOW' AND (rules IS NULL OR rules = ''))";
    private static final String GROUPS = "SELECT subject, client_id, tenant, roles, action, uri, source_ip, " + HOUR
            + ", policy_revision, decision, COUNT(*)" + JUDGED + " GROUP BY subject, client_id, tenant, roles, action, uri,"
            + " source_ip, " + HOUR + ", policy_revision, decision";
    private static final int FETCH = 1000;

    private final AgroalDataSource ds;

    DecisionFacts(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds) {
        this.ds = ds;
    }

    /** Each group of the decisions recorded in {@code [from, to)}, read as one statement through a cursor. */
    public void groups(Instant from, Instant to, Consumer<Group> out) {
        try (Connection c = ds.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false); // PostgreSQL streams a result set only inside a transaction
            try (PreparedStatement ps = c.prepareStatement(GROUPS)) {
                ps.setFetchSize(FETCH);
                ps.setTimestamp(1, Timestamp.from(from));
                ps.setTimestamp(2, Timestamp.from(to));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.accept(new Group(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getString(6), rs.getString(7), Instant.ofEpochSecond(rs.getLong(8) * 3600),
                                rs.getString(9), rs.getString(10), rs.getLong(11)));
                    }
                }
            } finally {
                c.rollback();
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /**
     * Up to {@code limit} request ids, newest first, of the decisions recorded in {@code [from, to)} that belong to
     * {@code groups} (of one action and URI, as {@link #groups} gives them): a record belongs to a group when its
     * subject, client, tenant, roles, source address, hour, revision and decision are the group's.
     */
    public List<String> requestIds(List<Group> groups, Instant from, Instant to, int limit) {
        if (groups.isEmpty() || limit <= 0) {
            return List.of();
        }
        var sql = new StringBuilder("SELECT request_id").append(JUDGED).append(" AND action = ? AND uri = ? AND (");
        for (int g = 0; g < groups.size(); g++) {
            sql.append(g == 0 ? "" : " OR ").append("(subject IS NOT DISTINCT FROM ? AND client_id IS NOT DISTINCT FROM ?"
                    + " AND tenant IS NOT DISTINCT FROM ? AND COALESCE(roles, '') = ? AND source_ip IS NOT DISTINCT FROM ?"
                    + " AND event_time >= ? AND event_time < ? AND policy_revision IS NOT DISTINCT FROM ? AND decision = ?)");
        }
        sql.append(") ORDER BY event_time DESC LIMIT ").append(limit);
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            ps.setTimestamp(i++, Timestamp.from(from));
            ps.setTimestamp(i++, Timestamp.from(to));
            ps.setString(i++, groups.get(0).action());
            ps.setString(i++, groups.get(0).uri());
            for (Group g : groups) {
                ps.setString(i++, g.subject());
                ps.setString(i++, g.client());
                ps.setString(i++, g.tenant());
                ps.setString(i++, g.roles() == null ? "" : g.roles());
                ps.setString(i++, g.ip());
                ps.setTimestamp(i++, Timestamp.from(g.hour()));
                ps.setTimestamp(i++, Timestamp.from(g.hour().plusSeconds(3600)));
                ps.setString(i++, g.revision());
                ps.setString(i++, g.decision());
            }
            var out = new ArrayList<String>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }
}
