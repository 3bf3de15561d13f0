package dev.quaestor.review;

import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.TestPostgres;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daily review over a generated history of 25 people and 30 days in Europe/Zurich, from the first day of a new
 * system: each reads client files on working days, in working hours, some of them a few files in the evening now and
 * then, a few refused now and then; one joins on the 19th day with a heavier day than most; one reads 12 files on a
 * Saturday; and one reads 236 client files on one day. Every day is reviewed with the shipped defaults (only the zone
 * set): the spike is found on its day and nowhere else, the Saturday's reads are flagged, the evening's few are not,
 * and every day has fewer than 10 findings, at most one per person and kind. The rows are what the writer stores for a
 * read (a DECISION and an OUTCOME) and a refusal (a DENY DECISION), in a database of the test's own.
 */
class GeneratedHistoryReviewTest {

    static final ZoneId ZONE = ZoneId.of("Europe/Zurich");
    static final LocalDate FIRST = LocalDate.of(2026, 10, 5); // a Monday; the clocks change on the 25th
    static final int DAYS = 30;
    static final int PEOPLE = 25;
    static final String SPIKER = "p07";
    static final LocalDate SPIKE_DAY = FIRST.plusDays(23); // a Wednesday
    static final int SPIKE = 236;
    static final String NEWCOMER = "p25";
    static final LocalDate JOINS = FIRST.plusDays(18);
    static final String WEEKEND_WORKER = "p12";
    static final LocalDate SATURDAY = FIRST.plusDays(12);

    @Test
    void theSpikeIsFoundAndEveryDayHasFewerThanTenFindings() throws Exception {
        String url = ScratchDatabase.recreate("review_history");
        Flyway.configure().dataSource(url, TestPostgres.SUPERUSER, "").locations("classpath:db/migration/common",
                "classpath:db/migration/postgresql").placeholders(Map.of("appRole", "__none__")).load().migrate();
        long rows;
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            rows = generate(c);
        }
        var ds = new PGSimpleDataSource();
        ds.setUrl(url);
        ds.setUser(TestPostgres.SUPERUSER);
        var config = new SmallRyeConfigBuilder().withMapping(ReviewConfig.class)
                .withConverter(java.time.Duration.class, 100, new io.quarkus.runtime.configuration.DurationConverter())
                .withSources(new PropertiesConfigSource(Map.of("quaestor.review.zone", ZONE.getId()), "test", 400)).build()
                .getConfigMapping(ReviewConfig.class);
        var queries = new ReviewQueries(ds, config);

        System.out.printf("generated history: %d people, %d days from %s (%s), %,d records%n", PEOPLE, DAYS, FIRST, ZONE, rows);
        Map<LocalDate, List<Finding>> byDay = new TreeMap<>();
        for (int i = 0; i < DAYS; i++) {
            LocalDate day = FIRST.plusDays(i);
            byDay.put(day, queries.findings(day));
        }
        int total = 0;
        int max = 0;
        for (var e : byDay.entrySet()) {
            List<Finding> findings = e.getValue();
            total += findings.size();
            max = Math.max(max, findings.size());
            System.out.printf("%s %s: %d finding(s)%s%n", e.getKey(), e.getKey().getDayOfWeek().toString().substring(0, 3), findings.size(),
                    findings.isEmpty() ? "" : findings.stream().map(f -> f.category + " " + f.subject + " " + f.eventCount)
                            .collect(Collectors.joining(", ", " ", "")));
        }
        System.out.printf("findings a day: mean %.2f, max %d%n",
                total / (double) DAYS, max);
        byDay.get(SPIKE_DAY).stream().filter(f -> f.category.equals("READ_SPIKE")).forEach(f -> System.out.println("the spike: " + f.detail));

        for (var e : byDay.entrySet()) {
            LocalDate day = e.getKey();
            List<Finding> findings = e.getValue();
            assertTrue(findings.size() < 10, day + ": " + findings.size() + " findings");
            var seen = new HashSet<String>();
            for (Finding f : findings) {
                assertTrue(seen.add(f.category + " " + f.subject), day + ": one finding per person and kind: " + f.category + " " + f.subject);
            }
            var spikes = findings.stream().filter(f -> f.category.equals("READ_SPIKE")).toList();
            if (day.equals(SPIKE_DAY)) {
                assertEquals(1, spikes.size(), day + ": " + spikes);
                assertEquals(SPIKER, spikes.get(0).subject);
                assertEquals(SPIKE, spikes.get(0).eventCount);
            } else {
                assertEquals(List.of(), spikes.stream().map(f -> f.subject + " " + f.detail).toList(), day + ": no spike");
            }
            var offHours = findings.stream().filter(f -> f.category.equals("OFF_HOURS")).map(f -> f.subject).toList();
            assertEquals(day.equals(SATURDAY) ? List.of(WEEKEND_WORKER) : List.of(), offHours, day + ": off hours");
        }
    }

    /** Writes the history; returns how many records. */
    private static long generate(Connection c) throws Exception {
        for (int m = 0; m < 3; m++) {
            c.createStatement().execute("SELECT quaestor_audit_ensure_partition(TIMESTAMP WITH TIME ZONE '" + FIRST.plusMonths(m)
                    + " 12:00:00+00')");
        }
        var random = new Random(20261129);
        double[] usual = new double[PEOPLE + 1];
        for (int p = 1; p <= PEOPLE; p++) {
            usual[p] = 8 + random.nextInt(48); // 8 to 55 files on a usual day
        }
        usual[25] = 75; // the newcomer's work reads more than most
        long n = 0;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_entry (event_time, request_id, kind, subject, client_id, method, "
                + "action, uri, decision, outcome, format, chain_id, seq) VALUES (?, ?, ?, ?, 'assistant', 'resources/read', 'read', ?, ?, ?, "
                + "'3', 'generated', ?)")) {
            for (int i = 0; i < DAYS; i++) {
                LocalDate day = FIRST.plusDays(i);
                boolean weekday = day.getDayOfWeek() != DayOfWeek.SATURDAY && day.getDayOfWeek() != DayOfWeek.SUNDAY;
                for (int p = 1; p <= PEOPLE; p++) {
                    String who = String.format("p%02d", p);
                    var reads = new ArrayList<LocalTime>();
                    if (weekday && !(who.equals(NEWCOMER) && day.isBefore(JOINS))) {
                        long files = who.equals(SPIKER) && day.equals(SPIKE_DAY) ? SPIKE
                                : Math.max(1, Math.round(usual[p] * (1 + 0.25 * random.nextGaussian())));
                        for (int k = 0; k < files; k++) {
                            reads.add(LocalTime.of(8, 0).plusSeconds(random.nextInt(10 * 3600)));
                        }
                        if (random.nextDouble() < 0.15) {
                            for (int k = 1 + random.nextInt(3); k > 0; k--) {
                                reads.add(LocalTime.of(19, 5).plusSeconds(random.nextInt(85 * 60)));
                            }
                        }
                        if (random.nextDouble() < 0.03) {
                            n += add(ps, day, LocalTime.of(9, 0).plusSeconds(random.nextInt(8 * 3600)), who, "DECISION", "file:///hr/salaries.xlsx",
                                    "DENY", null, n);
                        }
                    } else if (who.equals(WEEKEND_WORKER) && day.equals(SATURDAY)) {
                        for (int k = 0; k < 12; k++) {
                            reads.add(LocalTime.of(10, 0).plusMinutes(4 * k));
                        }
                    }
                    for (LocalTime t : reads) {
                        String uri = String.format("file:///clients/c%05d/statement.pdf", random.nextInt(20_000));
                        n += add(ps, day, t, who, "DECISION", uri, "ALLOW", null, n);
                        n += add(ps, day, t.plusNanos(2_000_000), who, "OUTCOME", uri, null, "ok", n);
                    }
                }
                ps.executeBatch();
            }
        }
        c.createStatement().execute("ANALYZE audit_entry");
        return n;
    }

    private static int add(PreparedStatement ps, LocalDate day, LocalTime t, String who, String kind, String uri, String decision, String outcome,
            long seq) throws Exception {
        ps.setObject(1, OffsetDateTime.ofInstant(day.atTime(t).atZone(ZONE).toInstant(), ZoneOffset.UTC));
        ps.setString(2, "req-" + day + "-" + who + "-" + seq / 2);
        ps.setString(3, kind);
        ps.setString(4, who);
        ps.setString(5, uri);
        ps.setString(6, decision);
        ps.setString(7, outcome);
        ps.setLong(8, seq + 1);
        ps.addBatch();
        return 1;
    }
}
