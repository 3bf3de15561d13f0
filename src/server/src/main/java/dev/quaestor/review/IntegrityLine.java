package dev.quaestor.review;

import dev.quaestor.evidence.check.Report;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Collectors;

/**
 * What a review says of the log's integrity: for a log that verifies, what was checked, when, and how far signatures
 * and time-stamps vouch for it ("records up to seq N verified at T; signed up to seq S; anchored up to seq A,
 * time-stamped at T′"); for one that does not, each problem with its log and position.
 */
final class IntegrityLine {

    private IntegrityLine() {
    }

    static String of(Report report, Instant checked) {
        Instant checkedAt = checked.truncatedTo(ChronoUnit.SECONDS);
        if (!report.ok()) {
            return report.problems().stream().map(p -> p.log() + " seq " + p.seq() + ": " + p.message()).collect(Collectors.joining("; "));
        }
        if (report.logs().isEmpty()) {
            return "no records to verify (checked at " + checkedAt + ")";
        }
        return report.logs().stream().map(l -> "log " + l.log() + ": records up to seq " + l.lastSeq() + " (" + l.records()
                + ") verified at " + checkedAt + "; signed up to seq " + l.signedThrough() + "; " + (l.anchoredThrough() > 0
                        ? "anchored up to seq " + l.anchoredThrough() + ", time-stamped at " + l.anchoredAt().truncatedTo(ChronoUnit.SECONDS) : "not anchored"))
                .collect(Collectors.joining(" | "));
    }
}
