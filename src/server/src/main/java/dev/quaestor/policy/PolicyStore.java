package dev.quaestor.policy;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Holds the active {@link PolicySet} and swaps in new ones. A request reads {@link #current()} once
 * and is judged by that set to its end, so a swap never mixes two revisions within one request.
 *
 * <p>Start-up fails if the directory does not hold a valid set: a server that cannot know its
 * policy must not serve. Later, an invalid set is refused and the last good one stays active;
 * {@link #refusal()} says why until a valid set arrives.
 */
@Startup
@ApplicationScoped
public class PolicyStore {

    private static final Logger LOG = Logger.getLogger(PolicyStore.class);

    private final Path dir;
    private final Event<PolicyChange> changes;
    private final AtomicReference<PolicySet> current = new AtomicReference<>();
    private volatile PolicyChange refusal;
    /** What reading the directory found wrong when the last refusal was made (empty if every file was read). */
    private List<PolicyError> refusedReading = List.of();

    PolicyStore(PolicyConfig config, Event<PolicyChange> changes) {
        this.dir = Path.of(config.path()).toAbsolutePath();
        this.changes = changes;
        PolicySet set;
        try {
            set = PolicyLoader.load(dir);
        } catch (RuntimeException e) {
            // Said here, in the message itself: the start's own error names only "Failed to start application".
            LOG.errorf("the server does not start: the policy set in %s is refused: %s", dir, e.getMessage());
            throw e;
        }
        current.set(set);
        LOG.infof("policy set %s active: %d rules, %d limits, %d tests from %s", set.revision(),
                set.rules().size(), set.limits().size(), set.tests().size(), dir);
    }

    public PolicySet current() {
        return current.get();
    }

    /** The last refusal, if the newest content on disk is not the active set; null otherwise. */
    public PolicyChange refusal() {
        return refusal;
    }

    public Path directory() {
        return dir;
    }

    /**
     * Re-reads the directory and activates its content if it changed and is valid. Unchanged
     * content (same revision as the active or the last refused set) is a no-op. The change is fired
     * ({@link PolicyChange}) before it takes effect; if it cannot be recorded, nothing changes and null
     * is returned, and the next reload tries again.
     */
    public PolicyChange reload() {
        return reload(PolicyChange.RELOAD);
    }

    /** As {@link #reload()}; {@code how} says what prompted it ({@link PolicyChange#FILE_CHANGE}, {@link PolicyChange#RELOAD}). */
    public synchronized PolicyChange reload(String how) {
        Reading read = read();
        var files = read.files();
        var errors = read.errors();
        String candidate = read.revision();
        PolicySet active = current.get();
        if (errors.isEmpty() && candidate.equals(active.revision())) {
            return refusal == null ? null : endRefusal(active);
        }
        // The revision covers only the files read: a set refused for a file it could not read or would not read (a
        // stray name) has the revision of the same set once that file is gone, which is then not a refusal repeated.
        if (refusal != null && candidate.equals(refusal.candidateRevision()) && errors.equals(refusedReading)) {
            return null;
        }
        if (!read.equals(readAgain())) {
            return null; // still being written: judged at the next reload, once it holds still
        }
        PolicyChange change;
        PolicySet next = null;
        try {
            // What reading found wrong (a stray name, an unreadable file) is reported with every mistake of the files
            // read, as `policy test` reports them, not alone: one refusal names everything to fix.
            next = PolicyLoader.parse(files, new ArrayList<>(errors));
            change = new PolicyChange(Instant.now(), true, next.revision(), next.revision(), List.of(), next.rules().size(), how, next);
        } catch (PolicyValidationException e) {
            change = new PolicyChange(Instant.now(), false, active.revision(), candidate, e.errors(), active.rules().size(), how, active);
        }
        try {
            changes.fire(change); // recorded first: an observer that cannot record it stops it
        } catch (RuntimeException e) {
            LOG.errorf("policy set %s was not %s, %s stays active: the change could not be recorded (%s); tried again at the next reload",
                    candidate, change.activated() ? "activated" : "refused", active.revision(), e.getMessage());
            return null;
        }
        if (next != null) {
            current.set(next);
            refusal = null;
            LOG.infof("policy set %s activated (was %s): %d rules", next.revision(), active.revision(), next.rules().size());
        } else {
            refusal = change;
            refusedReading = List.copyOf(errors);
            LOG.errorf("policy set %s refused, %s stays active: %s", candidate, active.revision(),
                    change.errors().stream().map(PolicyError::toString).collect(java.util.stream.Collectors.joining("; ")));
        }
        return change;
    }

    /**
     * The files went back to the set in force after a refusal: the refusal is over, which is recorded as a change is
     * (first; if it cannot be, the refusal stands and the next reload tries again).
     */
    private PolicyChange endRefusal(PolicySet active) {
        var change = new PolicyChange(Instant.now(), true, active.revision(), refusal.candidateRevision(), List.of(),
                active.rules().size(), PolicyChange.BACK_TO_ACTIVE, active);
        try {
            changes.fire(change);
        } catch (RuntimeException e) {
            LOG.errorf("the policy files are back to %s, but the end of the refusal of %s could not be recorded (%s); tried"
                    + " again at the next reload", active.revision(), refusal.candidateRevision(), e.getMessage());
            return null;
        }
        LOG.infof("policy files back to the active set %s: the refusal of %s is over", active.revision(),
                refusal.candidateRevision());
        refusal = null;
        return change;
    }

    /** The directory as read once: its files, what reading it found wrong, and the revision of the files read. */
    private record Reading(List<Map.Entry<String, String>> files, List<PolicyError> errors, String revision) {
    }

    private Reading read() {
        var errors = new ArrayList<PolicyError>();
        List<Map.Entry<String, String>> files;
        try {
            files = PolicyLoader.read(dir, errors);
        } catch (PolicyValidationException e) {
            // No file to read (the directory emptied, or unreadable): refused like any invalid set, on record.
            files = List.of();
            errors.clear();
            errors.addAll(e.errors());
        }
        return new Reading(files, errors, PolicyLoader.revision(files));
    }

    /**
     * The directory read again a moment later. A file edited in place can be read half written, and a half that still
     * parses (the rules before a deny the editor has not written yet) would be a valid set: a new set is judged only
     * if two reads {@value #STEADY_MS} ms apart agree. A ConfigMap volume changes in one rename, so it always does.
     */
    private Reading readAgain() {
        try {
            Thread.sleep(STEADY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        betweenReads.run();
        return read();
    }

    /** How long two reads of a new set are apart. */
    static final long STEADY_MS = 200;

    /** Runs between the two reads of a new set (tests write there, as an editor would). */
    Runnable betweenReads = () -> { };
}
