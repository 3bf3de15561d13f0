package dev.quaestor.review;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The days the job owes a review: each of the last {@code quaestor.review.catch-up-days} days before today (in the
 * review zone) that has none, never a day before the audit log's first record. A day whose review failed, or that no
 * replica reviewed at all, stays here until a run produces it.
 */
@ApplicationScoped
public class ReviewBacklog {

    private final ReviewQueries queries;
    private final ReviewConfig config;

    ReviewBacklog(ReviewQueries queries, ReviewConfig config) {
        this.queries = queries;
        this.config = config;
    }

    /** The days without a review as of {@code now} that the job owes, oldest first. */
    public List<LocalDate> missing(Instant now) {
        return missing(now, config.catchUpDays());
    }

    /**
     * The days without a review among the last {@code days} before today as of {@code now} (in the review zone), oldest
     * first, none before the day of the audit log's first record; none while the log has no record.
     */
    public List<LocalDate> missing(Instant now, int days) {
        LocalDate last = LocalDate.ofInstant(now, ZoneId.of(config.zone())).minusDays(1);
        Optional<LocalDate> began = queries.firstDay();
        if (began.isEmpty()) {
            return List.of();
        }
        LocalDate window = last.minusDays(days - 1L);
        LocalDate first = began.get().isAfter(window) ? began.get() : window;
        if (first.isAfter(last)) {
            return List.of();
        }
        Set<LocalDate> reviewed = QuarkusTransaction.requiringNew().call(() -> new HashSet<>(Review.daysBetween(first, last)));
        return first.datesUntil(last.plusDays(1)).filter(d -> !reviewed.contains(d)).toList();
    }

    /** The day (in the review zone) of the audit log's first record; empty while the log has none. */
    public Optional<LocalDate> firstDay() {
        return queries.firstDay();
    }

    /** How many of the missing days are past the deadline their review would have had; none while the review is off. */
    public long overdue(Instant now) {
        if (!config.enabled()) {
            return 0;
        }
        return missing(now).stream().filter(d -> now.isAfter(config.deadlineOf(d))).count();
    }
}
