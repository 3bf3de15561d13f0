package dev.quaestor.review;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.OnlineVerifier;
import dev.quaestor.support.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scheduled job reviews every day of the last {@code catch-up-days} (3 in tests) that has no review: a day whose
 * review failed is produced by the next run, no restart needed, and until then it counts as overdue once past the
 * deadline its review would have had. Days before the log's first record are not reviewed. The job runs here under
 * clocks in 2090 (and 2000), far from the days other tests review; what it produced is removed afterwards.
 */
@QuarkusTest
class ReviewCatchUpTest {

    static final LocalDate FAILING = LocalDate.of(2090, 1, 9);

    @Inject
    ReviewQueries queries;
    @Inject
    OnlineVerifier reader;
    @Inject
    AuditLog audit;
    @Inject
    ReviewConfig config;
    @Inject
    ReviewBacklog backlog;
    @Inject
    OverdueReviews overdue;

    @Test
    void aDayWhoseReviewFailedIsProducedByTheNextRun() throws Exception {
        refuseReviewOf(FAILING);
        try {
            job(Instant.parse("2090-01-10T00:15:00Z")).daily();
        } finally {
            exec("DROP TRIGGER IF EXISTS test_refuse_catch_up ON review");
        }
        assertEquals(1, reviews(FAILING.minusDays(2)), "the days before were reviewed");
        assertEquals(1, reviews(FAILING.minusDays(1)));
        assertEquals(0, reviews(FAILING), "the failing day was not");

        Instant nextRun = Instant.parse("2090-01-11T00:15:00Z");
        assertEquals(1, backlog.overdue(nextRun), "the missing day is overdue from 2090-01-11T00:00 (the day after, not yet)");
        assertEquals(countOverdueReviews(nextRun) + 1, overdue.count(nextRun), "the gauge counts it with the unsigned reviews");
        job(nextRun).daily();
        assertEquals(1, reviews(FAILING), "the next run produced the failed day");
        assertEquals(1, reviews(FAILING.plusDays(1)), "and its own day");
        assertEquals(0, backlog.overdue(nextRun));
    }

    @Test
    void daysBeforeTheLogBeganAreNotReviewed() throws Exception {
        job(Instant.parse("2000-01-04T00:15:00Z")).daily();
        assertEquals(0, reviews(LocalDate.of(2000, 1, 1)) + reviews(LocalDate.of(2000, 1, 2)) + reviews(LocalDate.of(2000, 1, 3)));
        assertEquals(0, backlog.overdue(Instant.parse("2000-01-10T00:00:00Z")), "nor owed");
    }

    @AfterEach
    void removeTheReviews() throws Exception {
        String days = "review_day >= DATE '2090-01-01' OR review_day < DATE '2000-02-01'";
        exec("DELETE FROM review_finding WHERE review_id IN (SELECT id FROM review WHERE " + days + ")");
        exec("DELETE FROM review WHERE " + days);
        exec("DELETE FROM review_run WHERE " + days);
    }

    private static long countOverdueReviews(Instant now) {
        return io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().call(() -> Review.countOverdue(now));
    }

    private DailyReview job(Instant at) {
        return new DailyReview(queries, reader, audit, config, "replica-a", Clock.fixed(at, ZoneOffset.UTC));
    }

    /** The review's insert fails for {@code day} only, as a database outage during its run would. */
    private static void refuseReviewOf(LocalDate day) throws Exception {
        exec("CREATE OR REPLACE FUNCTION test_refuse_catch_up() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "IF NEW.review_day = DATE '" + day + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
        exec("DROP TRIGGER IF EXISTS test_refuse_catch_up ON review");
        exec("CREATE TRIGGER test_refuse_catch_up BEFORE INSERT ON review FOR EACH ROW EXECUTE FUNCTION test_refuse_catch_up()");
    }

    private static long reviews(LocalDate day) throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
