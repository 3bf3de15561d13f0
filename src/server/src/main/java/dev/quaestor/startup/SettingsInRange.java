package dev.quaestor.startup;

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
import dev.quaestor.provider.mounts.MountsConfig;
import dev.quaestor.ratelimit.RateLimitConfig;
import dev.quaestor.review.ReviewConfig;
import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import dev.quaestor.subscription.SubscriptionConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.config.SmallRyeConfig;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Refuses the start when a number or duration is out of the range its configuration group allows, naming every such
 * property and its range in one message. It runs first of all that start with the application (the settings are read
 * at run time, so it cannot run sooner), before the mounts, the policy watcher, the sweeps and the audit writer start,
 * and before the scheduler, whose own refusal of a wrong time zone would not name the property.
 */
@ApplicationScoped
public class SettingsInRange {

    private static final Logger LOG = Logger.getLogger(SettingsInRange.class);

    /** Every configuration group with ranges (a test holds this list to every {@link RangeChecked} group there is). */
    static final List<Class<? extends RangeChecked>> GROUPS = List.of(PolicyConfig.class, MountsConfig.class,
            ListingConfig.class, ReadConfig.class, StreamConfig.class, TransportConfig.class, SubjectLimitsConfig.class,
            SessionConfig.class, SubscriptionConfig.class, AuditConfig.class, LongReadConfig.class, AdminConfig.class,
            IdentityConfig.class, ConsoleConfig.class, ReviewConfig.class, RateLimitConfig.class);

    // the scheduler starts at PLATFORM_BEFORE (0): one before it
    void check(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE - 1) StartupEvent started) {
        String problem = problem(outOfRange(ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)));
        if (problem != null) {
            LOG.error(problem);
            throw new IllegalStateException(problem);
        }
    }

    /** Each property of {@link #GROUPS} out of its range in {@code config}, in the order of the groups. */
    static List<String> outOfRange(SmallRyeConfig config) {
        SettingRanges r = new SettingRanges();
        for (Class<? extends RangeChecked> group : GROUPS) {
            config.getConfigMapping(group).checkRanges(r);
        }
        // Single keys outside any group: the provider calls' default time box (a group with the prefix quaestor.provider
        // would claim the build's -Dquaestor.provider.* properties as its own), and Quarkus's own keys that the
        // deployment sets through variables of this server's (application.properties)
        config.getOptionalValue("quaestor.provider.timeout-ms", Long.class)
                .ifPresent(v -> r.atLeast("quaestor.provider.timeout-ms", v, 1));
        config.getOptionalValue("quarkus.shutdown.timeout", Duration.class)
                .ifPresent(d -> r.positive("quarkus.shutdown.timeout (QUAESTOR_SHUTDOWN_TIMEOUT)", d));
        config.getOptionalValue("quarkus.shutdown.delay", Duration.class)
                .ifPresent(d -> r.notNegative("quarkus.shutdown.delay (QUAESTOR_SHUTDOWN_DELAY)", d));
        return r.problems();
    }

    /** The message refusing the start for these properties out of range, or null when there are none. */
    static String problem(List<String> outOfRange) {
        if (outOfRange.isEmpty()) {
            return null;
        }
        return "settings out of range: " + String.join("; ", outOfRange);
    }
}
