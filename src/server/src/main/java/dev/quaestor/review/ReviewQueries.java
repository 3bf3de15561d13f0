package dev.quaestor.review;

import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.jdbc.Transactions;
import dev.quaestor.review.Finding.Category;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * What a day's review looks for, read straight from {@code audit_entry} (read-only; the writer is not involved):
 * denials by subject, read spikes against each subject's own trailing median, reads outside working hours,
 * rate-limit refusals, refused authentications and policy changes.
 */
@ApplicationScoped
public class ReviewQueries {

    private final DataSource ds;
    private final ReviewConfig config;

    @Inject
    ReviewQueries(@io.quarkus.agroal.DataSource(dev.quaestor.audit.config.AuditPools.READ) AgroalDataSource ds, ReviewConfig config) {
        this((DataSource) ds, config);
    }

    /** Over any database holding the audit log (tests review generated histories in a database of their own). */
    ReviewQueries(DataSource ds, ReviewConfig config) {
        this.ds = ds;
        this.config = config;
    }

    /** The findings of {@code day} (in the review zone), integrity aside. */
    public List<Finding> findings(LocalDate day) {
        ZoneId zone = ZoneId.of(config.zone());
        try {
            // PostgreSQL streams a day's reads through a cursor only inside a transaction
            return Transactions.inTransaction(ds, c -> {
                var out = new ArrayList<Finding>();
                Instant from = start(day, zone);
                Instant to = start(day.plusDays(1), zone);
                // A summary of refused attempts counts for every refusal it stands for (its event_count).
                var denials = countBy(c, "subject", "kind IN ('DECISION', 'AUDIT_READ', 'ADMIN') AND decision = 'DENY'", from, to);
                sumBy(c, "subject", "event_count", "kind = 'ATTEMPT_SUMMARY' AND subject IS NOT NULL AND decision = 'DENY'"
                        + " AND outcome <> 'insufficient-scope'", from, to).forEach((s, n) -> denials.merge(s, n, Long::sum));
                for (var e : denials.entrySet()) {
                    out.add(Finding.of(Category.DENIALS, e.getKey(), e.getValue(), e.getValue() + " request(s) denied"));
                }
                out.addAll(spikes(c, day, zone));
                out.addAll(offHours(c, from, to, zone));
                var limited = countBy(c, "subject", "kind = 'DECISION' AND outcome = 'rate-limited'", from, to);
                sumBy(c, "subject", "event_count", "kind = 'ATTEMPT_SUMMARY' AND outcome = 'rate-limited'", from, to)
                        .forEach((s, n) -> limited.merge(s, n, Long::sum));
                for (var e : limited.entrySet()) {
                    out.add(Finding.of(Category.RATE_LIMITED, e.getKey(), e.getValue(), e.getValue() + " request(s) refused by a rate limit"));
                }
                // Refusals only: a console sign-in is an AUTHENTICATION record too, with decision ALLOW.
                var auth = countBy(c, "source_ip", "kind = 'AUTHENTICATION' AND decision = 'DENY'", from, to);
                sumBy(c, "source_ip", "event_count", "kind = 'ATTEMPT_SUMMARY' AND (subject IS NULL OR outcome = 'insufficient-scope')",
                        from, to).forEach((ip, n) -> auth.merge(ip, n, Long::sum));
                for (var e : auth.entrySet()) {
                    out.add(Finding.of(Category.FAILED_AUTHENTICATION, null, e.getValue(),
                            e.getValue() + " refused authentication(s) from " + e.getKey()));
                }
                out.addAll(policyChanges(c, from, to));
                return out;
            });
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    /** The day (in the review zone) of the audit log's first record; empty while the log has none. */
    public Optional<LocalDate> firstDay() {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT MIN(event_time) FROM audit_entry");
                ResultSet rs = ps.executeQuery()) {
            OffsetDateTime first = rs.next() ? rs.getObject(1, OffsetDateTime.class) : null;
            return Optional.ofNullable(first).map(t -> LocalDate.ofInstant(t.toInstant(), ZoneId.of(config.zone())));
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
    }

    static Instant start(LocalDate day, ZoneId zone) {
        return day.atStartOfDay(zone).toInstant();
    }

    /**
     * People whose distinct resources read in the day are a spike ({@link SpikeRule}) against their own days with reads
     * in the baseline window, or their peers' for someone new: one query over the window, counted per person and day.
     */
    private List<Finding> spikes(Connection c, LocalDate day, ZoneId zone) throws SQLException {
        int window = config.baselineDays();
        Map<String, Map<LocalDate, Long>> perDay = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT subject, d, COUNT(DISTINCT uri) FROM (SELECT subject, uri, "
                + "CAST(event_time AT TIME ZONE ? AS DATE) AS d FROM audit_entry WHERE kind = 'OUTCOME' AND action = 'read' "
                + "AND outcome = 'ok' AND subject IS NOT NULL AND event_time >= ? AND event_time < ?) t GROUP BY subject, d")) {
            ps.setString(1, zone.getId());
            ps.setObject(2, OffsetDateTime.ofInstant(start(day.minusDays(window), zone), ZoneOffset.UTC));
            ps.setObject(3, OffsetDateTime.ofInstant(start(day.plusDays(1), zone), ZoneOffset.UTC));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    perDay.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getObject(2, LocalDate.class), rs.getLong(3));
                }
            }
        }
        var rule = new SpikeRule(config);
        Map<String, long[]> history = new TreeMap<>();
        perDay.forEach((s, days) -> history.put(s, days.entrySet().stream().filter(e -> e.getKey().isBefore(day) && e.getValue() > 0)
                .mapToLong(Map.Entry::getValue).toArray()));
        double peers = SpikeRule.median(history.values().stream().filter(rule::established).mapToDouble(SpikeRule::usual).toArray());
        var out = new ArrayList<Finding>();
        history.forEach((s, days) -> {
            long today = perDay.get(s).getOrDefault(day, 0L);
            rule.judge(today, days, peers).ifPresent(why -> out.add(Finding.of(Category.READ_SPIKE, s, today, why)));
        });
        return out;
    }

    private List<Finding> offHours(Connection c, Instant from, Instant to, ZoneId zone) throws SQLException {
        var wh = config.workingHours();
        Set<DayOfWeek> days = wh.daysOfWeek();
        Map<String, long[]> counts = new TreeMap<>();
        Map<String, String> first = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT subject, event_time, uri FROM audit_entry WHERE kind = 'OUTCOME' "
                + "AND action = 'read' AND outcome = 'ok' AND event_time >= ? AND event_time < ? ORDER BY id")) {
            bind(ps, from, to);
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ZonedDateTime t = rs.getObject(2, OffsetDateTime.class).atZoneSameInstant(zone);
                    LocalTime lt = t.toLocalTime();
                    boolean inside = days.contains(t.getDayOfWeek()) && !lt.isBefore(wh.from()) && lt.isBefore(wh.to());
                    if (!inside) {
                        String s = rs.getString(1) == null ? "(none)" : rs.getString(1);
                        counts.computeIfAbsent(s, k -> new long[1])[0]++;
                        first.putIfAbsent(s, t.toOffsetDateTime() + " " + rs.getString(3));
                    }
                }
            }
        }
        var out = new ArrayList<Finding>();
        counts.entrySet().removeIf(e -> e.getValue()[0] < config.offHoursMinimum());
        counts.forEach((s, n) -> out.add(Finding.of(Category.OFF_HOURS, s, n[0], n[0] + " read(s) outside " + wh.from() + "–"
                + wh.to() + " " + wh.days() + " (" + zone + "); first: " + first.get(s))));
        return out;
    }

    private List<Finding> policyChanges(Connection c, Instant from, Instant to) throws SQLException {
        var out = new ArrayList<Finding>();
        try (PreparedStatement ps = c.prepareStatement("SELECT method, policy_revision, COUNT(*), MIN(event_time), MIN(detail) "
                + "FROM audit_entry WHERE kind = 'POLICY' AND event_time >= ? AND event_time < ? GROUP BY method, policy_revision "
                + "ORDER BY MIN(event_time)")) {
            bind(ps, from, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(Finding.of(Category.POLICY_CHANGE, null, rs.getLong(3), rs.getString(1) + " " + rs.getString(2)
                            + " (first at " + rs.getObject(4, OffsetDateTime.class).toInstant() + "): " + rs.getString(5)));
                }
            }
        }
        return out;
    }

    private static Map<String, Long> countBy(Connection c, String column, String where, Instant from, Instant to) throws SQLException {
        return aggregate(c, "SELECT " + column + ", COUNT(*) FROM audit_entry WHERE " + where
                + " AND event_time >= ? AND event_time < ? GROUP BY " + column, from, to);
    }

    private static Map<String, Long> sumBy(Connection c, String column, String summed, String where, Instant from, Instant to)
            throws SQLException {
        return aggregate(c, "SELECT " + column + ", SUM(" + summed + ") FROM audit_entry WHERE " + where
                + " AND event_time >= ? AND event_time < ? GROUP BY " + column, from, to);
    }

    private static Map<String, Long> distinctReads(Connection c, String where, Instant from, Instant to) throws SQLException {
        return aggregate(c, "SELECT subject, COUNT(DISTINCT uri) FROM audit_entry WHERE " + where
                + " AND event_time >= ? AND event_time < ? GROUP BY subject", from, to);
    }

    private static Map<String, Long> aggregate(Connection c, String sql, Instant from, Instant to) throws SQLException {
        var out = new TreeMap<String, Long>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, from, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1) == null ? "(none)" : rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }

    private static void bind(PreparedStatement ps, Instant from, Instant to) throws SQLException {
        ps.setObject(1, OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
        ps.setObject(2, OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
    }
}
