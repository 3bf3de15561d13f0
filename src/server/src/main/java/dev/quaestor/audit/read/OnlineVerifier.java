package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.anchor.PinnedTsaRoots;
import dev.quaestor.audit.record.LiveLog;

import dev.quaestor.evidence.check.LogVerifier;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.check.TrustedKeys;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Verifies every log in the database with the offline verifier's own checks ({@link LogVerifier}), on the audit-read
 * pool ({@link AuditPools#READ}), reading the log as it stood when the check started a page at a time.
 */
@ApplicationScoped
public class OnlineVerifier {

    private final AgroalDataSource ds;
    private final LiveLog log;
    private final PinnedTsaRoots tsaRoots;
    private final LastVerification last;

    OnlineVerifier(@io.quarkus.agroal.DataSource(AuditPools.READ) AgroalDataSource ds, LiveLog log, PinnedTsaRoots tsaRoots,
            LastVerification last) {
        this.ds = ds;
        this.log = log;
        this.tsaRoots = tsaRoots;
        this.last = last;
    }

    /**
     * Trusts only the pinned keys and TSA roots (never one the database names), and checks this replica's log against
     * the size its writer knows it committed (records removed from the end). This replica's writer is first asked to
     * sign its head, so that a log still younger than its first checkpoint interval is checked against a signature
     * like any other (a log no checkpoint covers at all is not verified). Its words place things by seq, not by the
     * export's lines ({@link OnlineWords}). What it found is kept as the {@link LastVerification}.
     */
    public Report verify() {
        Report report = check();
        last.record(report);
        return report;
    }

    private Report check() {
        log.signCheckpointNow(); // if the database cannot take it now, the check says what it finds
        var v = new LogVerifier(TrustedKeys.of(log.trustedKeys(), List.of()), tsaRoots.check().orElse(null), false, true);
        // Read before the check is fixed, so that every record this replica had committed then is within it.
        long live = log.committedHead();
        try {
            StoredLog.replay(ds, StoredLog.bounds(ds), null, null, v);
        } catch (SQLException e) {
            throw new AuditUnavailableException(e);
        }
        Report report = OnlineWords.of(v.finish());
        long stored = report.logs().stream().filter(l -> l.log().equals(log.logId())).mapToLong(Report.Summary::lastSeq)
                .findFirst().orElse(0L);
        boolean broken = report.problems().stream().anyMatch(p -> p.log().equals(log.logId()));
        if (stored < live && !broken) {
            var problems = new ArrayList<>(report.problems());
            problems.add(Problem.of(Problem.Kind.MISSING, log.logId(), stored + 1, 0, "this replica committed " + live
                    + " records to log " + log.logId() + " but the database ends at " + stored + ": records were removed from its end",
                    "records up to seq " + live + " (committed by this replica)", "the last record is seq " + stored));
            return new Report(report.logs(), List.copyOf(problems), report.warnings());
        }
        return report;
    }
}
