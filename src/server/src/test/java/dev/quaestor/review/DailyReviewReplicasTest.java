package dev.quaestor.review;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.OnlineVerifier;
import dev.quaestor.support.TestDatabase;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two replicas' review jobs (two instances of the job class, each under its own replica name) against one
 * database, started together for the same days: each day gets exactly one run row and one review, produced by
 * the replica that won the row. A run that claimed a day and never finished is taken over once it is stale; one that
 * failed gives its claim back, so the day can be produced again at once.
 */
@QuarkusTest
class DailyReviewReplicasTest {

    @Inject
    ReviewQueries queries;
    @Inject
    OnlineVerifier reader;
    @Inject
    AuditLog audit;
    @Inject
    ReviewConfig config;
    @Inject
    Scheduler scheduler;
    @Inject
    OverdueReviews overdue;

    @Test
    void theJobIsScheduledDaily() {
        var job = scheduler.getScheduledJob("daily-review");
        assertNotNull(job, "the daily review is a scheduled job");
        assertEquals("0 15 0 * * ?", config.cron());
        // The job as scheduled: it fires next at a quarter past midnight in the configured zone, within a day from now.
        Instant now = Instant.now();
        Instant next = job.getNextFireTime();
        assertNotNull(next, "the job fires again");
        ZonedDateTime local = next.atZone(ZoneId.of(config.zone()));
        assertEquals(LocalTime.of(0, 15), local.toLocalTime(), "fires at 00:15 " + config.zone() + ": " + local);
        assertTrue(next.isAfter(now) && !next.isAfter(now.plus(Duration.ofDays(1))), "fires within a day: " + next + ", now " + now);
    }

    @Test
    void twoReplicasProduceExactlyOneReviewPerDay() throws Exception {
        var a = new DailyReview(queries, reader, audit, config, "replica-a", Clock.systemUTC());
        var b = new DailyReview(queries, reader, audit, config, "replica-b", Clock.systemUTC());
        LocalDate first = LocalDate.of(2020, 3, 1);
        int days = 6;
        var pool = Executors.newFixedThreadPool(2);
        var results = new ArrayList<DailyReview.Result[]>();
        try {
            for (int i = 0; i < days; i++) {
                LocalDate day = first.plusDays(i);
                var start = new CyclicBarrier(2);
                Future<DailyReview.Result> ra = pool.submit(() -> {
                    start.await();
                    return a.reviewDay(day);
                });
                Future<DailyReview.Result> rb = pool.submit(() -> {
                    start.await();
                    return b.reviewDay(day);
                });
                results.add(new DailyReview.Result[] {ra.get(), rb.get()});
            }
        } finally {
            pool.shutdown();
        }
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            for (int i = 0; i < days; i++) {
                LocalDate day = first.plusDays(i);
                var r = results.get(i);
                long produced = List.of(r).stream().filter(x -> x == DailyReview.Result.PRODUCED).count();
                assertEquals(1, produced, day + ": " + List.of(r));
                assertTrue(List.of(r).stream().allMatch(x -> x == DailyReview.Result.PRODUCED || x == DailyReview.Result.ALREADY_CLAIMED
                        || x == DailyReview.Result.ALREADY_REVIEWED), day + ": " + List.of(r));
                assertEquals(1, count(c, "SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day + "'"), day.toString());
                assertEquals(1, count(c, "SELECT COUNT(*) FROM review_run WHERE review_day = DATE '" + day + "' AND finished_at IS NOT NULL"),
                        day.toString());
                assertEquals(1, count(c, "SELECT COUNT(*) FROM review r JOIN review_run u ON u.review_day = r.review_day AND u.replica = r.generated_by "
                        + "WHERE r.review_day = DATE '" + day + "'"), day + ": produced by the replica that won the run row");
                assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_entry WHERE method = 'review/produce' AND uri = 'review:" + day + "'"),
                        day + ": one production record");
            }
        }
        // Again, later: nothing more is produced.
        assertEquals(DailyReview.Result.ALREADY_REVIEWED, a.reviewDay(first));
        // Unsigned long past their deadline: overdue, and counted by the gauge alerts watch.
        overdue.refresh();
        assertTrue(overdue.value() >= days, "overdue: " + overdue.value());
        String metrics = io.restassured.RestAssured.given().header("Authorization", "Bearer "
                + dev.quaestor.support.TestIssuer.tokenFor("admin")).get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("quaestor_review_overdue") && !l.endsWith(" 0.0")), metrics.lines()
                .filter(l -> l.contains("review")).toList().toString());
    }

    @Test
    void aRunThatNeverFinishedIsTakenOverOnceStale() throws Exception {
        LocalDate day = LocalDate.of(2020, 4, 1);
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.createStatement().execute("INSERT INTO review_run (review_day, replica, started_at) VALUES (DATE '" + day
                    + "', 'replica-gone', CURRENT_TIMESTAMP - INTERVAL '2 hours')");
            c.createStatement().execute("INSERT INTO review_run (review_day, replica, started_at) VALUES (DATE '" + day.plusDays(1)
                    + "', 'replica-busy', CURRENT_TIMESTAMP)");
        }
        var b = new DailyReview(queries, reader, audit, config, "replica-b", Clock.systemUTC());
        assertEquals(DailyReview.Result.PRODUCED, b.reviewDay(day), "a stale claim is taken over");
        assertEquals(DailyReview.Result.ALREADY_CLAIMED, b.reviewDay(day.plusDays(1)), "a live claim is left alone");
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day + "' AND generated_by = 'replica-b'"));
            assertEquals(0, count(c, "SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day.plusDays(1) + "'"));
        }
    }

    @Test
    void aRunThatFailsGivesItsClaimBack() throws Exception {
        LocalDate day = LocalDate.of(2020, 5, 1);
        // The review's insert fails for this day only, as a database hiccup mid-run would.
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_review() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.review_day = DATE '" + day + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
            s.execute("DROP TRIGGER IF EXISTS test_refuse_review ON review");
            s.execute("CREATE TRIGGER test_refuse_review BEFORE INSERT ON review FOR EACH ROW EXECUTE FUNCTION test_refuse_review()");
        }
        var a = new DailyReview(queries, reader, audit, config, "replica-a", Clock.systemUTC());
        try {
            assertThrows(RuntimeException.class, () -> a.reviewDay(day));
        } finally {
            try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
                s.execute("DROP TRIGGER IF EXISTS test_refuse_review ON review");
            }
        }
        long markedFailed;
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            markedFailed = count(c, "SELECT COUNT(*) FROM review_run WHERE review_day = DATE '" + day + "' AND replica = 'replica-a' "
                    + "AND finished_at IS NULL AND failed_at IS NOT NULL");
        }
        // Right after, long before the claim would have gone stale, the same day is produced (here by another replica).
        var b = new DailyReview(queries, reader, audit, config, "replica-b", Clock.systemUTC());
        assertEquals(DailyReview.Result.PRODUCED, b.reviewDay(day), "the failed run's claim is taken over at once");
        assertEquals(1, markedFailed, "the failed run marked its claim failed");
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day + "' AND generated_by = 'replica-b'"));
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_run WHERE review_day = DATE '" + day + "' AND replica = 'replica-b' "
                    + "AND finished_at IS NOT NULL AND failed_at IS NULL"));
        }
    }

    private static long count(Connection c, String sql) throws Exception {
        try (var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
