package dev.quaestor.retention;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.jdbc.Transactions;
import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import org.jboss.logging.Logger;

/**
 * Puts each run of the retention job, and each retention lock it sets or refuses, on the audit log as an
 * {@code AUDIT_RETENTION} record: the job runs as the database owner and holds no signing key, so it writes its run
 * (or lock) to {@code retention_run}, and a replica records it
 * here. One replica records each run: it claims the run ({@code retention_run_record}, keyed by the run) in a
 * transaction that commits only once the record is committed (a second replica's claim waits for it, then fails), so a
 * run is recorded once, and again by the next pass if the record could not be committed.
 */
@ApplicationScoped
public class RetentionRunRecorder {

    private static final Logger LOG = Logger.getLogger(RetentionRunRecorder.class);
    /** Runs recorded per pass at most. */
    static final int BATCH = 50;

    private record Run(long id, String outcome, int age, String runBy, OffsetDateTime finished, String summary) {
    }

    private final AgroalDataSource ds;
    private final AuditLog log;

    RetentionRunRecorder(AgroalDataSource ds, AuditLog log) {
        this.ds = ds;
        this.log = log;
    }

    @Scheduled(identity = "retention-run-records", every = "{quaestor.retention.record-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void pass() {
        try {
            recordPending();
        } catch (SQLException | RuntimeException e) {
            LOG.warnf("retention runs not recorded yet: %s", e.getMessage());
        }
    }

    /** Records every run not recorded yet; returns how many this call recorded. */
    public int recordPending() throws SQLException {
        var runs = new ArrayList<Run>();
        try (var c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT r.id, r.outcome, r.age_months, r.run_by,"
                + " r.finished_at, r.summary FROM retention_run r WHERE NOT EXISTS (SELECT 1 FROM retention_run_record x"
                + " WHERE x.run_id = r.id) ORDER BY r.id LIMIT " + BATCH)) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    runs.add(new Run(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getString(4),
                            rs.getObject(5, OffsetDateTime.class), rs.getString(6)));
                }
            }
        }
        int recorded = 0;
        for (Run r : runs) {
            recorded += record(r) ? 1 : 0;
        }
        return recorded;
    }

    private boolean record(Run r) throws SQLException {
        return Transactions.inTransaction(ds, c -> {
            String requestId = RequestIds.next();
            try (PreparedStatement claim = c.prepareStatement("INSERT INTO retention_run_record (run_id, request_id, recorded_at)"
                    + " SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM retention_run_record WHERE run_id = ?)")) {
                claim.setLong(1, r.id());
                claim.setString(2, requestId);
                claim.setObject(3, OffsetDateTime.now(ZoneOffset.UTC));
                claim.setLong(4, r.id());
                if (claim.executeUpdate() == 0) {
                    return false;
                }
            }
            log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_RETENTION, requestId).method("retention/run")
                    .uri("quaestor:retention/run/" + r.id()).decision("ALLOW").outcome(r.outcome())
                    .detail(detail(r)).build());
            return true;
        });
    }

    /** Cut, if it must be, where every record's detail is ({@link dev.quaestor.audit.record.AuditRecords#cut}). */
    private static String detail(Run r) {
        return "run " + r.id() + " by " + r.runBy() + ", finished " + r.finished().toInstant() + ": " + r.summary();
    }
}
