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
import dev.quaestor.settings.SettingRanges;
import dev.quaestor.subscription.SubscriptionConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Refuses the start when a number or duration is out of the range its configuration group allows, naming every such
 * property and its range in one message. It runs first of all that start with the application (the settings are read
 * at run time, so it cannot run sooner), before the policy watcher, the sweeps and the audit writer start.
 */
@ApplicationScoped
public class SettingsInRange {

    private static final Logger LOG = Logger.getLogger(SettingsInRange.class);

    void check(@Observes @Priority(1) StartupEvent started, PolicyConfig policies,
            ListingConfig listing, ReadConfig reads, StreamConfig streams, TransportConfig transport,
            SubjectLimitsConfig perSubject, SessionConfig sessions, SubscriptionConfig subscriptions,
            AuditConfig audit, LongReadConfig longReads, AdminConfig admin, IdentityConfig identity,
            ConsoleConfig console) {
        SettingRanges r = new SettingRanges();
        policies.checkRanges(r);
        listing.checkRanges(r);
        reads.checkRanges(r);
        streams.checkRanges(r);
        transport.checkRanges(r);
        perSubject.checkRanges(r);
        sessions.checkRanges(r);
        subscriptions.checkRanges(r);
        audit.checkRanges(r);
        longReads.checkRanges(r);
        admin.checkRanges(r);
        identity.checkRanges(r);
        console.checkRanges(r);
        String problem = problem(r.problems());
        if (problem != null) {
            LOG.error(problem);
            throw new IllegalStateException(problem);
        }
    }

    /** The message refusing the start for these properties out of range, or null when there are none. */
    static String problem(List<String> outOfRange) {
        if (outOfRange.isEmpty()) {
            return null;
        }
        return "settings out of range: " + String.join("; ", outOfRange);
    }
}
