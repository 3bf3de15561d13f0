package dev.quaestor.console;

import dev.quaestor.audit.read.LastVerification;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import io.quarkus.qute.TemplateData;
import java.util.List;
import java.util.Optional;

/**
 * What the last integrity check on this replica found, for pages that show records: whether it found problems (when,
 * how many), and each log it found broken with the first position from which its records are not verified (the broken
 * record, or the first of the records among which one is broken). A page marks its rows from there on without
 * checking the log again ({@link LastVerification}); nothing if no check ran since the replica started.
 */
@TemplateData
public record IntegrityNotice(String checkedAt, int problems, List<Broken> logs) {

    /** A log the check found broken, and the first seq it does not vouch for. */
    @TemplateData
    public record Broken(String log, long from) {
    }

    static final IntegrityNotice NONE = new IntegrityNotice(null, 0, List.of());

    static IntegrityNotice of(Optional<LastVerification.Checked> last) {
        if (last.isEmpty() || last.get().report().ok()) {
            return NONE;
        }
        Report r = last.get().report();
        List<Broken> logs = r.logs().stream().filter(Report.Summary::broken)
                .map(s -> new Broken(s.log(), r.problems().stream().filter(p -> p.log().equals(s.log()))
                        .mapToLong(IntegrityNotice::from).min().orElse(1L)))
                .toList();
        return new IntegrityNotice(ShownTime.utc(last.get().at()), r.problems().size(), logs);
    }

    /** Where a log's break starts: the first of the records a problem names, else its position (the whole log if none). */
    private static long from(Problem p) {
        return p.records() != null ? p.records().first() : Math.max(1, p.seq());
    }

    /** Whether the last check found problems. */
    public boolean found() {
        return problems > 0;
    }

    /** Whether the row is in a log the last check found broken, at or after its break: it is not verified. */
    public boolean unverified(RecordRow r) {
        return broken(r) != null;
    }

    /** Why the row is not verified, in words; empty if it is not marked. */
    public String why(RecordRow r) {
        Broken b = broken(r);
        return b == null ? "" : "not verified: the integrity check at " + checkedAt + " found log " + b.log() + " broken from seq "
                + b.from() + " on, and this is seq " + r.row().seq();
    }

    private Broken broken(RecordRow r) {
        Long seq = r.row().seq();
        if (seq == null || r.row().log() == null) {
            return null;
        }
        return logs.stream().filter(b -> b.log().equals(r.row().log()) && seq >= b.from()).findFirst().orElse(null);
    }
}
