package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
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
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * How often the reads a search matches happened, and how often reads were refused, grouped by subject, by URI or by
 * day: "who read the deal room last week, and how often". A read is the {@code OUTCOME} of a read that served content;
 * a refusal is a denied or rate-limited read's {@code DECISION}, and a summary of refused attempts counts every refusal
 * it stands for. On the audit-read pool, under its query timeout.
 */
@ApplicationScoped
public class AuditTally {

    /** What the counts are grouped by. A day is a calendar day in the zone the caller names. */
    public enum By {
        SUBJECT, URI, DAY,
        /** The folder a URI is in: the URI up to its last {@code /} (a URI without one is its own folder). */
        FOLDER
    }

    /** One group: its key (a subject, a URI, or a day as {@code 2026-11-23}) and its counts. */
    public record Count(String key, long reads, long refused) {
    }

    /** The records a tally counts: reads that served content, and refused reads (a summary of refused attempts). */
    private static final String COUNTED = " AND (kind = 'OUTCOME' AND outcome = 'ok' OR kind = 'ATTEMPT_SUMMARY'"
            + " OR kind = 'DECISION' AND (decision = 'DENY' OR outcome = 'rate-limited'))";

    private static final String COUNTS = "sum(CASE WHEN kind = 'OUTCOME' AND outcome = 'ok' THEN 1 ELSE 0 END) AS reads, "
            + "sum(CASE WHEN kind = 'ATTEMPT_SUMMARY' THEN coalesce(event_count, 1) WHEN kind = 'DECISION' AND (decision = 'DENY'"
            + " OR outcome = 'rate-limited') THEN 1 ELSE 0 END) AS refused";

    /** Rows a cursor over the counted records fetches at a time. */
    private static final int FETCH = 1000;

    private final DataSource ds;
    private final Supplier<FieldHasher> hasher;

    @Inject
    AuditTally(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log) {
        this(ds, log::hasher);
    }

    /** Over any database holding the log, its hashed fields stored as {@code hasher} says (tests at volume). */
    AuditTally(DataSource ds, Supplier<FieldHasher> hasher) {
        this.ds = ds;
        this.hasher = hasher;
    }

    /**
     * The counts of the reads {@code q} matches (its action is taken as {@code read}), by {@code by}, most read first, at
     * most {@code limit} groups, counted by the database (only the groups returned are held); {@code zone} (an IANA name) is the zone whose calendar days {@link By#DAY} counts.
     */
    public List<Count> tally(AuditQuery q, By by, String zone, int limit) {
        var where = reads(q).where(hasher.get());
        var args = new ArrayList<Object>();
        String key = switch (by) {
            case SUBJECT -> "subject";
            case URI -> "uri";
            case FOLDER -> "CASE WHEN position('/' in uri) > 0 THEN regexp_replace(uri, '[^/]*$', '') ELSE uri END";
            case DAY -> {
                args.add(zone);
                yield "CAST(event_time AT TIME ZONE ? AS DATE)";
            }
        };
        args.addAll(where.args());
        String sql = "SELECT k, " + COUNTS + " FROM (SELECT " + key + " AS k, kind, outcome, decision, event_count FROM audit_entry"
                + where.sql() + " AND kind IN ('OUTCOME', 'DECISION', 'ATTEMPT_SUMMARY')) t GROUP BY k ORDER BY "
                + (by == By.DAY ? "k" : "reads DESC, refused DESC, k") + " LIMIT " + Math.max(1, limit);
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            AuditSearch.bind(ps, args);
            var out = new ArrayList<Count>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Count(rs.getString(1), rs.getLong(2), rs.getLong(3)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
    }

    /**
     * The newest {@code limit} records the tallies of {@code q} count (a read that served content, a refused read, a
     * summary of refused attempts), newest first, read through a cursor on one connection: memory stays flat, and the
     * cost is at most {@code limit} rows however many the question counts. Returns how many were read.
     */
    public int counted(AuditQuery q, int limit, Consumer<AuditRow> out) {
        var where = reads(q).where(hasher.get());
        int n = 0;
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false); // PostgreSQL streams through a cursor only inside a transaction
            try (PreparedStatement ps = c.prepareStatement(AuditSearch.SELECT + where.sql() + COUNTED + " ORDER BY id DESC LIMIT "
                    + limit)) {
                ps.setFetchSize(Math.min(FETCH, limit));
                AuditSearch.bind(ps, where.args());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.accept(AuditRow.read(rs));
                        n++;
                    }
                }
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw AuditQueryTimeout.of(e);
        }
        return n;
    }

    /**
     * The folder {@link By#FOLDER} counts a URI in: the URI up to and with its last {@code /}, the URI itself if it has
     * none (as the tally's SQL does); null for none.
     */
    public static String folder(String uri) {
        return uri == null || uri.indexOf('/') < 0 ? uri : uri.substring(0, uri.lastIndexOf('/') + 1);
    }

    /** The reads among what {@code q} matches: its action taken as {@code read}. */
    private static AuditQuery reads(AuditQuery q) {
        return new AuditQuery(q.subject(), q.client(), q.tenant(), q.uriPrefix(), "read", q.decision(), q.outcome(), q.kind(),
                q.exceptKind(), q.from(), q.to(), null, q.limit());
    }
}
