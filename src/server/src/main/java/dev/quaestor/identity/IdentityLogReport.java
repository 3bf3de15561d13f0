package dev.quaestor.identity;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/** Once a minute, how many identity-library records {@link IdentityLogBudget} kept out of the log, by logger. */
@ApplicationScoped
public class IdentityLogReport {

    private static final Logger LOG = Logger.getLogger(IdentityLogReport.class);

    @Scheduled(identity = "identity-log-report", every = "60s", delayed = "60s")
    void report() {
        report(IdentityLogBudget.SHARED.takeNotLogged());
    }

    static void report(Map<String, Long> notLogged) {
        notLogged.forEach((logger, count) -> LOG.warnf("%d records of %s at WARNING or above were not logged (at most %d"
                + " a minute are); refused sign-ins and tokens are on the audit trail", count, logger, IdentityLogBudget.PER_MINUTE));
    }
}
