package dev.quaestor.admin;

import dev.quaestor.audit.read.DecisionFacts;
import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyValidationException;
import dev.quaestor.policy.history.StoredRevision;
import dev.quaestor.policy.whatif.Fact;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The history what-if replays, as this server holds it: the facts of the decisions its audit log recorded, and the
 * files of each policy revision it has run (so that each fact can be replayed under the revision it was recorded
 * with).
 */
@ApplicationScoped
public class RecordedHistory {

    private static final Logger LOG = Logger.getLogger(RecordedHistory.class);

    private final DecisionFacts facts;

    RecordedHistory(DecisionFacts facts) {
        this.facts = facts;
    }

    /** The distinct facts of the window, without request ids. */
    public void facts(Instant from, Instant to, Consumer<Fact> out) {
        facts.groups(from, to, g -> out.accept(new Fact(g.subject(), g.client(), g.tenant(), roles(g.roles()), g.action(),
                g.uri(), g.ip(), g.hour(), g.revision(), g.decision(), g.count(), List.of())));
    }

    /** Up to {@code limit} ids of the requests behind {@code sources} (facts of one action and URI) in the window. */
    public List<String> requestIds(List<Fact> sources, Instant from, Instant to, int limit) {
        return facts.requestIds(sources.stream().map(f -> new DecisionFacts.Group(f.subject(), f.client(), f.tenant(),
                String.join(",", f.roles()), f.action(), f.uri(), f.ip(), f.hour(), f.revision(), f.decision(), f.count()))
                .toList(), from, to, limit);
    }

    /**
     * The set a stored revision's files make, or null if they are not stored, no longer hash to the revision (changed
     * in the database) or no longer load.
     */
    public PolicySet revision(String revision) {
        try {
            var files = StoredRevision.checkedFiles(revision);
            if (files == null) {
                return null;
            }
            return PolicyLoader.parse(List.copyOf(files.entrySet()), new ArrayList<PolicyError>());
        } catch (StoredRevision.Altered e) {
            LOG.errorf("%s", e.getMessage());
            return null;
        } catch (PolicyValidationException e) {
            LOG.warnf("stored policy revision %s no longer loads: %s", revision, e.getMessage());
            return null;
        } catch (RuntimeException e) {
            LOG.warnf("cannot read stored policy revision %s: %s", revision, e.getMessage());
            return null;
        }
    }

    private static List<String> roles(String recorded) {
        return recorded == null || recorded.isEmpty() ? List.of() : Arrays.asList(recorded.split(","));
    }
}
