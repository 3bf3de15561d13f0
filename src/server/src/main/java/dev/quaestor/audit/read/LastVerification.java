package dev.quaestor.audit.read;

import dev.quaestor.evidence.check.Report;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * What the online check of every log found the last time it ran on this replica (the console's Integrity page,
 * {@code /audit/verify}, the daily review), and when: so that pages showing records can say the log did not verify
 * without checking it again. Held in memory: empty until the first check after the replica starts.
 */
@ApplicationScoped
public class LastVerification {

    /** A check's report and when it ended. */
    public record Checked(Instant at, Report report) {
    }

    private volatile Checked last;

    void record(Report report) {
        last = new Checked(Instant.now(), report);
    }

    public Optional<Checked> latest() {
        return Optional.ofNullable(last);
    }
}
