package dev.quaestor.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.settings.RangeChecked;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SettingsInRangeTest {

    private static SmallRyeConfig config(Map<String, String> values) {
        SmallRyeConfigBuilder b = new SmallRyeConfigBuilder().addDefaultInterceptors(); // expands ${…} as at run time
        SettingsInRange.GROUPS.forEach(b::withMapping);
        return b.withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 400)).build();
    }

    private static List<String> problems(Map<String, String> values) {
        return SettingsInRange.outOfRange(config(values));
    }

    @Test
    void theDefaultsAreInRange() {
        assertEquals(List.of(), problems(Map.of()));
        assertEquals(List.of(), problems(Map.of("quaestor.mounts.docs.provider", "filesystem",
                "quaestor.mounts.docs.uri", "file:///docs/", "quaestor.mounts.docs.timeout-ms", "500")));
        assertNull(SettingsInRange.problem(List.of()));
    }

    /** A group whose ranges the start never checks would pass every test of its own and refuse nothing. */
    @Test
    void everyGroupWithRangesIsCheckedAtStart() throws Exception {
        Path classes = Path.of(SettingsInRange.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<Class<?>> groups = new HashSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> c = Class.forName(name, false, getClass().getClassLoader());
                if (c.isInterface() && c != RangeChecked.class && RangeChecked.class.isAssignableFrom(c)) {
                    groups.add(c);
                }
            }
        }
        assertTrue(groups.size() >= 16, groups.toString());
        assertEquals(groups, Set.copyOf(SettingsInRange.GROUPS));
    }

    @Test
    void aNegativeIntervalSizeOrCapIsRefusedNamingThePropertyAndItsRange() {
        List<String> p = problems(Map.of(
                "quaestor.policies.poll-interval", "-10s",
                "quaestor.list.page-size", "-3",
                "quaestor.limits.per-subject.in-flight", "-1"));
        assertEquals(3, p.size(), p.toString());
        assertTrue(p.contains("quaestor.policies.poll-interval (QUAESTOR_POLICIES_POLL_INTERVAL) must be more than 0, not -10s"), p.toString());
        assertTrue(p.contains("quaestor.list.page-size (QUAESTOR_LIST_PAGE_SIZE) must be at least 1, not -3"), p.toString());
        assertTrue(p.contains("quaestor.limits.per-subject.in-flight (QUAESTOR_LIMITS_PER_SUBJECT_IN_FLIGHT) must be at least 1, not -1"), p.toString());
        String message = SettingsInRange.problem(p);
        assertTrue(message.contains("quaestor.policies.poll-interval") && message.contains("quaestor.list.page-size")
                && message.contains("quaestor.limits.per-subject.in-flight"), message);
    }

    @Test
    void zeroIsRefusedWhereItMakesNoSenseAndKeptWhereItMeansNone() {
        List<String> p = problems(Map.of(
                "quaestor.sessions.sweep-interval", "0s",
                "quaestor.audit.query-timeout-ms", "0",
                "quaestor.audit.anchor.interval", "0s",
                "quaestor.subscriptions.coalesce-window", "0s",
                "quaestor.http.body-min-rate", "0",
                "quaestor.audit.long-reads.export-queue", "0",
                "quaestor.audit.attempts.merge-window", "2s"));
        assertEquals(List.of("quaestor.sessions.sweep-interval (QUAESTOR_SESSIONS_SWEEP_INTERVAL) must be more than 0, not 0s",
                "quaestor.audit.query-timeout-ms (QUAESTOR_AUDIT_QUERY_TIMEOUT_MS) must be at least 1, not 0",
                "quaestor.audit.attempts.merge-window (QUAESTOR_AUDIT_ATTEMPTS_MERGE_WINDOW) must be more than 0 and at most 1s, not 2s",
                "quaestor.audit.anchor.interval (QUAESTOR_AUDIT_ANCHOR_INTERVAL) must be more than 0, not 0s"), p);
    }

    @Test
    void aMountsSettingsAreCheckedAtStartNotOnItsFirstRead() {
        List<String> p = problems(Map.of(
                "quaestor.mounts.docs.provider", "filesystem", "quaestor.mounts.docs.uri", "file:///docs/",
                "quaestor.mounts.docs.bulkhead", "0",
                "quaestor.mounts.docs.subject-share", "1.5",
                "quaestor.mounts.docs.ttl-ms", "-1",
                "quaestor.mounts.docs.timeout-ms", "0",
                "quaestor.mounts.docs.circuit-breaker.failure-ratio", "0",
                "quaestor.provider.timeout-ms", "0"));
        assertEquals(List.of("quaestor.mounts.docs.ttl-ms (QUAESTOR_MOUNTS_DOCS_TTL_MS) must be at least 0, not -1",
                "quaestor.mounts.docs.bulkhead (QUAESTOR_MOUNTS_DOCS_BULKHEAD) must be at least 1, not 0",
                "quaestor.mounts.docs.subject-share (QUAESTOR_MOUNTS_DOCS_SUBJECT_SHARE) must be more than 0 and at most 1, not 1.5",
                "quaestor.mounts.docs.timeout-ms (QUAESTOR_MOUNTS_DOCS_TIMEOUT_MS) must be at least 1, not 0",
                "quaestor.mounts.docs.circuit-breaker.failure-ratio (QUAESTOR_MOUNTS_DOCS_CIRCUIT_BREAKER_FAILURE_RATIO) must be more than 0 and at most 1, not 0.0",
                "quaestor.provider.timeout-ms (QUAESTOR_PROVIDER_TIMEOUT_MS) must be at least 1, not 0"), p);
    }

    @Test
    void aMisspeltZoneOrDayAndHoursThatEndBeforeTheyStartRefuseTheStartNotTheNightsReview() {
        List<String> p = problems(Map.of(
                "quaestor.review.zone", "Europe/Zurik",
                "quaestor.review.working-hours.from", "19:00",
                "quaestor.review.working-hours.to", "07:00",
                "quaestor.review.working-hours.days", "mon,tue,wensday",
                "quaestor.review.spike-factor", "1",
                "quaestor.ratelimit.redis.timeout", "0s",
                "quarkus.shutdown.timeout", "-5S"));
        assertEquals(List.of("quaestor.review.spike-factor (QUAESTOR_REVIEW_SPIKE_FACTOR) must be more than 1, not 1.0",
                "quaestor.review.zone (QUAESTOR_REVIEW_ZONE) must be a time zone such as Europe/Zurich or UTC, not Europe/Zurik",
                "quaestor.review.working-hours.from (QUAESTOR_REVIEW_WORKING_HOURS_FROM) must be before quaestor.review.working-hours.to (07:00), not 19:00",
                "quaestor.review.working-hours.days (QUAESTOR_REVIEW_WORKING_HOURS_DAYS) must name days as mon, tue, wed, thu, fri, sat or sun, not wensday",
                "quaestor.ratelimit.redis.timeout (QUAESTOR_RATELIMIT_REDIS_TIMEOUT) must be more than 0, not 0s",
                "quarkus.shutdown.timeout (QUAESTOR_SHUTDOWN_TIMEOUT) must be more than 0, not -5s"), p);
    }
}
