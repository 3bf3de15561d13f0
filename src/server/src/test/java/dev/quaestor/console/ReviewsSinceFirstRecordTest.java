package dev.quaestor.console;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.review.ReviewConfig;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.PastLog;
import dev.quaestor.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reviews page lists the days without a review from the day of the audit log's first record on, never a day
 * before it: with a log that began five days ago (the test writes one, stamped then), the days listed are those of the
 * last 30, from the log's first record to yesterday, that have no review, newest first.
 */
@QuarkusTest
class ReviewsSinceFirstRecordTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Inject
    ReviewConfig reviews;

    @Test
    void daysWithoutAReviewStartAtTheLogsFirstRecord() throws Exception {
        ZoneId zone = ZoneId.of(reviews.zone());
        LocalDate today = LocalDate.now(zone);
        PastLog.write(ds, config, log, "reviews-began-" + System.nanoTime(), today.minusDays(5).atTime(12, 0).atZone(zone).toInstant(),
                "file:///docs/began/a");
        String page = ConsoleSession.signIn("auditor").get("/console/reviews").then().statusCode(200).extract().asString();

        var reviewed = new HashSet<LocalDate>();
        LocalDate first;
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            try (var rs = s.executeQuery("SELECT MIN(event_time) FROM audit_entry")) {
                assertTrue(rs.next());
                first = rs.getObject(1, OffsetDateTime.class).atZoneSameInstant(zone).toLocalDate();
            }
            try (var rs = s.executeQuery("SELECT review_day FROM review")) {
                while (rs.next()) {
                    reviewed.add(rs.getObject(1, LocalDate.class));
                }
            }
        }
        assertTrue(!first.isAfter(today.minusDays(5)), "the log began by " + today.minusDays(5) + ": " + first);
        var expected = new ArrayList<LocalDate>();
        for (LocalDate d = today.minusDays(1); !d.isBefore(first) && !d.isBefore(today.minusDays(30)); d = d.minusDays(1)) {
            if (!reviewed.contains(d)) {
                expected.add(d);
            }
        }
        assertEquals(expected, listed(page), page);
    }

    /**
     * A day before the log's first record cannot be produced from the console either (typed into "Another past day"): its
     * review would find no records and read as a day in which nothing happened. Refused 409, on record, nothing produced.
     */
    @Test
    void aDayBeforeTheLogBeganIsNotProduced() throws Exception {
        var console = ConsoleSession.signIn("auditor");
        for (String day : List.of("1999-01-01", "0000-01-01")) {
            var r = io.restassured.RestAssured.given().header("Cookie", console.cookies()).redirects().follow(false)
                    .formParam("csrf", console.csrf()).formParam("day", day).post("/console/reviews/produce");
            assertEquals(409, r.statusCode(), r.body().asString());
            assertTrue(r.body().asString().contains("a day before it has no records to review"), r.body().asString());
            try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
                try (var rs = s.executeQuery("SELECT COUNT(*) FROM review WHERE review_day::text = '" + day + "'")) {
                    assertTrue(rs.next());
                    assertEquals(0, rs.getLong(1), "no review of " + day);
                }
                try (var rs = s.executeQuery("SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'review/produce'"
                        + " AND outcome = 'refused' AND uri = 'review:" + day + "'")) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getLong(1), "the refusal is on record");
                }
            }
        }
    }

    /** The days the page lists without a review, in its order. */
    private static List<LocalDate> listed(String page) {
        var out = new ArrayList<LocalDate>();
        Matcher table = Pattern.compile("<table id=\"missing\">.*?</table>", Pattern.DOTALL).matcher(page);
        if (table.find()) {
            Matcher day = Pattern.compile("name=\"day\" value=\"([0-9-]+)\"").matcher(table.group());
            while (day.find()) {
                out.add(LocalDate.parse(day.group(1)));
            }
        }
        return out;
    }
}
