package dev.quaestor.review;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * {@code quaestor_review_overdue}: how many reviews are unsigned past their deadline, and how many days have no
 * review past the deadline theirs would have had ({@link ReviewBacklog}), for alerting. Counted every minute (and at
 * start), so a scrape never waits on the database.
 */
@ApplicationScoped
public class OverdueReviews {

    private static final Logger LOG = Logger.getLogger(OverdueReviews.class);
    private final AtomicLong overdue = new AtomicLong();

    private final ReviewBacklog backlog;

    OverdueReviews(MeterRegistry metrics, ReviewBacklog backlog) {
        this.backlog = backlog;
        metrics.gauge("quaestor.review.overdue", overdue);
    }

    @Scheduled(identity = "review-overdue", every = "60s", delayed = "5s")
    void refresh() {
        try {
            overdue.set(count(Instant.now()));
        } catch (RuntimeException e) {
            LOG.debugf("could not count overdue reviews: %s", e.getMessage());
        }
    }

    /** Unsigned reviews past their deadline and days without a review past theirs, at {@code now}. */
    long count(Instant now) {
        return QuarkusTransaction.requiringNew().call(() -> Review.countOverdue(now)) + backlog.overdue(now);
    }

    public long value() {
        return overdue.get();
    }
}
