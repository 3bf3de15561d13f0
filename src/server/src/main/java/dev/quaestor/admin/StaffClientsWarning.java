package dev.quaestor.admin;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * A production start without {@code quaestor.admin.staff-clients} says so once: any OAuth client's token for a person
 * with the auditor or administrator role may then call /audit and /admin, an AI client's included. Not refused, since
 * an organisation whose IdP gives those roles to no AI client's users may choose it.
 */
@ApplicationScoped
class StaffClientsWarning {

    private static final Logger LOG = Logger.getLogger(StaffClientsWarning.class);

    void started(@Observes StartupEvent event, AdminConfig config) {
        String warning = of(config.staffClients(), LaunchMode.current());
        if (warning != null) {
            LOG.warn(warning);
        }
    }

    /** The warning for a start in {@code mode} with these staff clients, or null. */
    static String of(Optional<Set<String>> staffClients, LaunchMode mode) {
        if (mode != LaunchMode.NORMAL || staffClients.filter(s -> !s.isEmpty()).isPresent()) {
            return null;
        }
        return "quaestor.admin.staff-clients (QUAESTOR_ADMIN_STAFF_CLIENTS) is unset: a token of any OAuth client, an AI"
                + " client's included, may call /audit and /admin for a person with the auditor or administrator role;"
                + " name your audit tooling's clients";
    }
}
