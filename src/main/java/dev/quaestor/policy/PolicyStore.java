package dev.quaestor.policy;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Holds the active {@link PolicySet}. A request reads {@link #current()} once and is judged by
 * that set to its end, so a swap never mixes two revisions within one request.
 *
 * <p>Start-up fails if the configured directory does not hold a valid set: a server that cannot
 * know its policy must not serve.
 */
@Startup
@ApplicationScoped
public class PolicyStore {

    private static final Logger LOG = Logger.getLogger(PolicyStore.class);

    private final Path dir;
    private final AtomicReference<PolicySet> current = new AtomicReference<>();

    PolicyStore(PolicyConfig config) {
        this.dir = Path.of(config.path()).toAbsolutePath();
        PolicySet set = PolicyLoader.load(dir);
        current.set(set);
        LOG.infof("policy set %s active: %d rules, %d limits, %d tests from %s", set.revision().substring(0, 12),
                set.rules().size(), set.limits().size(), set.tests().size(), dir);
    }

    public PolicySet current() {
        return current.get();
    }

    public Path directory() {
        return dir;
    }
}
