package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.TemplateData;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What was archived and is no longer in the database, from the archive markers ({@code audit_archive}: each archive
 * leaves one per log, at its end) and the retention job's runs ({@code retention_run}: which month went to which file,
 * with its SHA-256). The retention job archives one month to {@code audit-archive-YYYY-MM.jsonl}; an archive made by
 * hand ({@code scripts/audit-archive.sh}) holds everything before its end, in {@code audit-archive-before-YYYY-MM.jsonl}.
 */
@ApplicationScoped
public class ArchivedMonths {

    /** How a run of the retention job names what it archived: month, file and SHA-256. */
    private static final Pattern ARCHIVED = Pattern.compile(
            "archived (\\d{4}-\\d{2}): .*? to (audit-archive-\\d{4}-\\d{2}\\.jsonl) sha256 ([0-9a-f]{64})");

    /**
     * One archive: the months it holds (in words), its time range {@code [from, to)} in UTC ({@code from} null: from
     * the log's start), its file's name, and the file's SHA-256 when the retention job wrote it (else null).
     */
    @TemplateData
    public record Archive(String months, Instant from, Instant to, String file, String sha256) {

        /** The last month the archive holds ({@code 2019-02}). */
        public String lastMonth() {
            return YearMonth.from(to.minusNanos(1).atOffset(ZoneOffset.UTC)).toString();
        }

        boolean meets(Instant rangeFrom, Instant rangeTo) {
            return (rangeFrom == null || rangeFrom.isBefore(to)) && (rangeTo == null || from == null || rangeTo.isAfter(from));
        }
    }

    private final AgroalDataSource ds;

    ArchivedMonths(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds) {
        this.ds = ds;
    }

    /** Every archive, oldest first. */
    public List<Archive> all() {
        var out = new ArrayList<Archive>();
        try (Connection c = ds.getConnection()) {
            Map<YearMonth, String[]> byJob = new HashMap<>();
            try (ResultSet rs = c.createStatement().executeQuery("SELECT summary FROM retention_run WHERE outcome = 'archived'")) {
                while (rs.next()) {
                    var m = ARCHIVED.matcher(rs.getString(1));
                    while (m.find()) {
                        byJob.put(YearMonth.parse(m.group(1)), new String[] {m.group(2), m.group(3)});
                    }
                }
            }
            Instant previous = null;
            try (ResultSet rs = c.createStatement().executeQuery("SELECT DISTINCT before_time FROM audit_archive ORDER BY 1")) {
                while (rs.next()) {
                    Instant end = rs.getObject(1, OffsetDateTime.class).toInstant();
                    YearMonth last = YearMonth.from(end.minusNanos(1).atOffset(ZoneOffset.UTC));
                    String[] job = byJob.get(last);
                    if (job != null) {
                        out.add(new Archive(last.toString(), last.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC), end, job[0], job[1]));
                    } else {
                        out.add(new Archive((previous == null ? "up to " : "from " + previous.atOffset(ZoneOffset.UTC).toLocalDate()
                                + " to ") + last, previous, end, "audit-archive-before-" + YearMonth.from(end.atOffset(ZoneOffset.UTC))
                                + ".jsonl", null));
                    }
                    previous = end;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the archive markers could not be read: " + e.getMessage(), e);
        }
        return out;
    }

    /** The archives a time range (either end open: null) reaches into, oldest first. */
    public List<Archive> within(Instant from, Instant to) {
        return all().stream().filter(a -> a.meets(from, to)).toList();
    }
}
