package dev.quaestor.review;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.OnlineVerifier;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.review.Finding.Category;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The automated daily review (PCI DSS 10.4.1.1): each day, the previous day's findings, the log's integrity and
 * the policy changes, stored as a {@link Review} for a reviewer to sign off. Each run (and the catch-up after
 * start-up) reviews every day the {@link ReviewBacklog} says has none, so a day missed or failed is produced by the
 * next run. Runs once across replicas: the first to insert the day's {@link ReviewRun} row produces it. Its
 * production is an audit record carrying the review's digest.
 */
@ApplicationScoped
public class DailyReview {

    private static final Logger LOG = Logger.getLogger(DailyReview.class);

    /** What one attempt to review a day did. */
    public enum Result {
        PRODUCED, ALREADY_CLAIMED, ALREADY_REVIEWED, DISABLED
    }

    private final ReviewQueries queries;
    private final OnlineVerifier verifier;
    private final AuditLog audit;
    private final ReviewConfig config;
    private final ReviewBacklog backlog;
    private final String replica;
    private final Clock clock;

    @Inject
    DailyReview(ReviewQueries queries, OnlineVerifier verifier, AuditLog audit, ReviewConfig config) {
        this(queries, verifier, audit, config, audit.logId(), Clock.systemUTC());
    }

    /** A reviewer under another replica's name (tests run two against one database). */
    DailyReview(ReviewQueries queries, OnlineVerifier verifier, AuditLog audit, ReviewConfig config, String replica, Clock clock) {
        this.queries = queries;
        this.verifier = verifier;
        this.audit = audit;
        this.config = config;
        this.backlog = new ReviewBacklog(queries, config);
        this.replica = replica;
        this.clock = clock;
    }

    @Scheduled(identity = "daily-review", cron = "{quaestor.review.cron}", timeZone = "{quaestor.review.zone}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void daily() {
        reviewMissingDays();
    }

    void catchUp(@Observes StartupEvent ev) {
        if (!config.enabled() || !config.catchUp()) {
            return;
        }
        var t = new Thread(() -> {
            try {
                Thread.sleep(config.catchUpDelay().toMillis());
                reviewMissingDays();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "quaestor-review-catch-up");
        t.setDaemon(true);
        t.start();
    }

    /** Reviews each day that has no review yet ({@link ReviewBacklog}), oldest first; never throws. */
    void reviewMissingDays() {
        if (!config.enabled()) {
            return;
        }
        List<LocalDate> days;
        try {
            days = backlog.missing(clock.instant());
        } catch (RuntimeException e) {
            LOG.errorf(e, "the days without a review could not be read; the next run tries again");
            return;
        }
        days.forEach(this::run);
    }

    /** Reviews {@code day} unless it is reviewed already or another replica holds it; never throws. */
    public Result run(LocalDate day) {
        try {
            return reviewDay(day);
        } catch (RuntimeException e) {
            LOG.errorf(e, "the review of %s failed", day);
            return null;
        }
    }

    /** Reviews {@code day} if this replica wins the day's run row. */
    public Result reviewDay(LocalDate day) {
        if (!config.enabled()) {
            return Result.DISABLED;
        }
        if (QuarkusTransaction.requiringNew().call(() -> Review.forDay(day)) != null) {
            return Result.ALREADY_REVIEWED;
        }
        if (!claim(day)) {
            return Result.ALREADY_CLAIMED;
        }
        try {
            return produce(day);
        } catch (RuntimeException e) {
            release(day);
            throw e;
        }
    }

    /** Produces the review of {@code day}, whose run row this replica holds. */
    private Result produce(LocalDate day) {
        List<Finding> findings = queries.findings(day);
        Report report = verifier.verify();
        boolean ok = report.ok();
        String integrity = IntegrityLine.of(report, clock.instant());
        if (!ok) {
            findings.add(Finding.of(Category.INTEGRITY, null, report.problems().size(), integrity));
        }
        Instant now = clock.instant();
        Instant deadline = config.deadlineOf(day);
        String digest = ReviewDigest.of(day, ok, integrity, findings);
        String requestId = RequestIds.next();
        QuarkusTransaction.requiringNew().run(() -> {
            var r = new Review();
            r.day = day;
            r.generatedAt = now;
            r.generatedBy = replica;
            r.deadline = deadline;
            r.integrityOk = ok;
            r.integrity = integrity.length() > 4096 ? integrity.substring(0, 4096) : integrity;
            r.digest = digest;
            for (Finding f : findings) {
                f.review = r;
                r.findings.add(f);
            }
            r.persist();
            ReviewRun run = ReviewRun.findById(day);
            run.finishedAt = clock.instant();
        });
        audit.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, requestId).method("review/produce").uri("review:" + day)
                .decision("ALLOW").outcome("ok").items(findings.size()).contentSha256(digest)
                .detail("daily review of " + day + " by " + replica + ": " + findings.size() + " finding(s), integrity "
                        + (ok ? "verified" : "BROKEN") + ", due " + deadline)
                .build());
        LOG.infof("review of %s produced: %d finding(s), integrity %s", day, findings.size(), ok ? "verified" : "broken");
        return Result.PRODUCED;
    }

    /**
     * Gives back the claim of a run that failed here (the review was not stored): its row is marked failed, so that
     * the day is taken over at once rather than after {@code stale-run-after}. Only this replica's unfinished row is
     * marked: one another replica has taken over is left to it. If this fails too, the claim goes stale as a stopped
     * replica's does.
     */
    private void release(LocalDate day) {
        try {
            QuarkusTransaction.requiringNew().run(() -> ReviewRun.update(
                    "failedAt = ?1 where day = ?2 and replica = ?3 and finishedAt is null and failedAt is null", clock.instant(), day,
                    replica));
        } catch (RuntimeException e) {
            LOG.warnf(e, "the claim of the review of %s could not be given back; it is taken over after %s", day,
                    config.staleRunAfter());
        }
    }

    /** Inserts the day's run row; false if another replica has it (and its run has not failed or gone stale). */
    boolean claim(LocalDate day) {
        try {
            if (QuarkusTransaction.requiringNew().call(() -> ReviewRun.findById(day)) != null) {
                throw new IllegalStateException("claimed"); // usually another replica was first; a true race meets the key
            }
            QuarkusTransaction.requiringNew().run(() -> {
                var run = new ReviewRun();
                run.day = day;
                run.replica = replica;
                run.startedAt = clock.instant();
                run.persist();
                ReviewRun.flush();
            });
            return true;
        } catch (RuntimeException e) {
            // The primary key refused the row: another replica claimed the day. Take it over only if its run failed or
            // went stale. The conditions are all on the row, so two replicas taking over at once cannot both win it.
            Instant staleBefore = clock.instant().minus(config.staleRunAfter());
            Optional<Integer> taken = Optional.ofNullable(QuarkusTransaction.requiringNew().call(() -> ReviewRun.update(
                    "replica = ?1, startedAt = ?2, failedAt = null where day = ?3 and finishedAt is null "
                            + "and (failedAt is not null or startedAt < ?4)", replica, clock.instant(), day, staleBefore)));
            return taken.orElse(0) == 1 && QuarkusTransaction.requiringNew().call(() -> Review.forDay(day)) == null;
        }
    }
}
