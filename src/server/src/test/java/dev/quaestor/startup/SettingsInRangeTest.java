package dev.quaestor.startup;

import dev.quaestor.settings.SettingRanges;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.admin.AdminConfig;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.read.LongReadConfig;
import dev.quaestor.console.ConsoleConfig;
import dev.quaestor.http.StreamConfig;
import dev.quaestor.identity.IdentityConfig;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.TransportConfig;
import dev.quaestor.mcp.session.SessionConfig;
import dev.quaestor.pipeline.ListingConfig;
import dev.quaestor.pipeline.ReadConfig;
import dev.quaestor.policy.PolicyConfig;
import dev.quaestor.subscription.SubscriptionConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsInRangeTest {

    private static SmallRyeConfig config(Map<String, String> values) {
        return new SmallRyeConfigBuilder()
                .withMapping(PolicyConfig.class).withMapping(ListingConfig.class).withMapping(ReadConfig.class)
                .withMapping(StreamConfig.class).withMapping(TransportConfig.class)
                .withMapping(SubjectLimitsConfig.class).withMapping(SessionConfig.class)
                .withMapping(SubscriptionConfig.class).withMapping(AuditConfig.class)
                .withMapping(LongReadConfig.class).withMapping(AdminConfig.class).withMapping(IdentityConfig.class)
                .withMapping(ConsoleConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 400)).build();
    }

    private static List<String> problems(Map<String, String> values) {
        SmallRyeConfig c = config(values);
        SettingRanges r = new SettingRanges();
        c.getConfigMapping(PolicyConfig.class).checkRanges(r);
        c.getConfigMapping(ListingConfig.class).checkRanges(r);
        c.getConfigMapping(ReadConfig.class).checkRanges(r);
        c.getConfigMapping(StreamConfig.class).checkRanges(r);
        c.getConfigMapping(TransportConfig.class).checkRanges(r);
        c.getConfigMapping(SubjectLimitsConfig.class).checkRanges(r);
        c.getConfigMapping(SessionConfig.class).checkRanges(r);
        c.getConfigMapping(SubscriptionConfig.class).checkRanges(r);
        c.getConfigMapping(AuditConfig.class).checkRanges(r);
        c.getConfigMapping(LongReadConfig.class).checkRanges(r);
        c.getConfigMapping(AdminConfig.class).checkRanges(r);
        c.getConfigMapping(IdentityConfig.class).checkRanges(r);
        c.getConfigMapping(ConsoleConfig.class).checkRanges(r);
        return r.problems();
    }

    @Test
    void theDefaultsAreInRange() {
        assertEquals(List.of(), problems(Map.of()));
        assertNull(SettingsInRange.problem(List.of()));
    }

    @Test
    void aNegativeIntervalSizeOrCapIsRefusedNamingThePropertyAndItsRange() {
        List<String> p = problems(Map.of(
                "quaestor.policies.poll-interval", "-10s",
                "quaestor.list.page-size", "-3",
                "quaestor.limits.per-subject.in-flight", "-1"));
        assertEquals(3, p.size(), p.toString());
        assertTrue(p.contains("quaestor.policies.poll-interval must be more than 0, not PT-10S"), p.toString());
        assertTrue(p.contains("quaestor.list.page-size must be at least 1, not -3"), p.toString());
        assertTrue(p.contains("quaestor.limits.per-subject.in-flight must be at least 1, not -1"), p.toString());
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
        assertEquals(List.of("quaestor.sessions.sweep-interval must be more than 0, not PT0S",
                "quaestor.audit.query-timeout-ms must be at least 1, not 0",
                "quaestor.audit.attempts.merge-window must be more than 0 and at most PT1S, not PT2S",
                "quaestor.audit.anchor.interval must be more than 0, not PT0S"), p);
    }
}
