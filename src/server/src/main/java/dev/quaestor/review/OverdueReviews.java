package dev.quaestor.review;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * {@code quaestor_review_overdue}: how many reviews are unsigned past their deadline, for alerting. Counted
 * every minute (and at start), so a scrape never waits on the database.
 */
@ApplicationScoped
public class OverdueReviews {

    private static final Logger LOG = Logger.getLogger(OverdueReviews.class);
    private final AtomicLong overdue = new AtomicLong();

    OverdueReviews(MeterRegistry metrics) {
        metrics.gauge("quaestor.review.overdue", overdue);
    }

    @Scheduled(identity = "review-overdue", every = "60s", delayed = "5s")
    void refresh() {
        try {
            overdue.set(QuarkusTransaction.requiringNew().call(() -> Review.countOverdue(Instant.now())));
        } catch (RuntimeException e) {
            LOG.debugf("could not count overdue reviews: %s", e.getMessage());
        }
    }

    public long value() {
        return overdue.get();
    }
}
