package dev.quaestor.policy.history;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.policy.PolicyChange;
import dev.quaestor.policy.PolicyConfig;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyStore;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Keeps every policy revision's files, stored when the revision becomes active, and each activation: when,
 * on which replica, how (start-up, file change, reload) and with which annotation. The annotation is the text
 * of the file {@code quaestor.policies.annotation-file} (default {@code .revision-annotation}) in the policy
 * directory at that moment, such as a commit id and message written there by the pipeline that delivers the
 * policies, or a ConfigMap key of that name; dot-files are not policy files, so it does not change the revision.
 */
@ApplicationScoped
public class RevisionArchive {

    private static final Logger LOG = Logger.getLogger(RevisionArchive.class);
    static final int MAX_ANNOTATION = 1024;

    private final PolicyStore store;
    private final PolicyConfig config;
    private final AuditLog audit;
    /** Off with the persistence unit ({@code quarkus.hibernate-orm.active=false}): nothing is stored then. */
    private final boolean enabled;
    private volatile String active;

    RevisionArchive(PolicyStore store, PolicyConfig config, AuditLog audit,
            @ConfigProperty(name = "quarkus.hibernate-orm.active", defaultValue = "true") boolean enabled) {
        this.store = store;
        this.config = config;
        this.audit = audit;
        this.enabled = enabled;
        if (!enabled) {
            LOG.info("Hibernate ORM is off: policy revisions and activations are not stored (the POLICY records still are)");
        }
    }

    /**
     * The set loaded at start-up is stored off the start-up thread: readiness does not wait for it. It decides requests
     * from the start, so until its files are stored they are tried again ({@link #storeStartUpSet}).
     */
    void started(@Observes StartupEvent ev) {
        PolicySet set = store.current();
        Instant when = Instant.now();
        active = set.revision();
        var t = new Thread(() -> keepAtStartUp(set, when), "quaestor-revision-archive");
        t.setDaemon(true);
        t.start();
    }

    /** The start-up set and when it was loaded, while its files are not stored. */
    private record Unstored(PolicySet set, Instant when) {
    }

    private volatile Unstored unstored;

    /** Stores the start-up set's files and its activation; if the files cannot be stored now, they are tried again. */
    void keepAtStartUp(PolicySet set, Instant when) {
        unstored = new Unstored(set, when);
        storeStartUpSet();
    }

    /** Tries again to store the start-up set's files, if they are not yet: every record it decided names it. */
    @Scheduled(identity = "policy-revision-start-up", every = "10s", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    synchronized void storeStartUpSet() {
        Unstored u = unstored;
        if (u == null || !enabled) {
            return;
        }
        try {
            storeFiles(u.set(), u.when());
        } catch (RuntimeException e) {
            LOG.errorf("could not store the files of policy revision %s, in force since start-up (tried again in 10 s):"
                    + " %s", u.set().revision(), e.getMessage());
            return;
        }
        unstored = null;
        recordActivation(u.set(), u.when(), PolicyChange.START_UP, null);
    }

    /**
     * Before a set is activated, its files are stored (once per revision): the first of the activation's observers.
     * If they cannot be stored the activation stops (the exception goes back to the store, which keeps the set in
     * force and tries again at its next reload), so no revision decides a request without its text on record.
     */
    void storeBeforeActivation(@Observes @Priority(PolicyChange.ORDER_TEXT) PolicyChange change) {
        if (!enabled || !change.activated() || change.endsRefusal()) {
            return;
        }
        storeFiles(change.set(), change.time());
    }

    /**
     * After the activation's audit record (the evidence), its row in the console's history: a failure here is logged,
     * as the record already says what happened.
     */
    void activated(@Observes @Priority(PolicyChange.ORDER_HISTORY) PolicyChange change) {
        if (!change.activated() || change.endsRefusal()) {
            return;
        }
        String previous = active;
        active = change.set().revision();
        if (enabled) {
            recordActivation(change.set(), change.time(), change.how(), previous);
        }
    }

    /** Stores a revision's files unless they are; throws if they are neither stored now nor found stored. */
    private static void storeFiles(PolicySet set, Instant when) {
        try {
            QuarkusTransaction.requiringNew().run(() -> storeRevision(set, when));
        } catch (RuntimeException e) {
            // Another replica stored the same revision at the same moment: it is there either way.
            if (QuarkusTransaction.requiringNew().call(() -> StoredRevision.findById(set.revision())) == null) {
                throw new IllegalStateException("could not store policy revision " + set.revision() + ": " + e.getMessage(), e);
            }
        }
    }

    private void recordActivation(PolicySet set, Instant when, String how, String previous) {
        String annotation = annotation();
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                var a = new Activation();
                a.revision = set.revision();
                a.activatedAt = when;
                a.replica = audit.logId();
                a.how = how;
                a.previous = previous;
                a.annotation = annotation;
                a.persist();
            });
        } catch (RuntimeException e) {
            LOG.errorf(e, "could not record the activation of policy revision %s", set.revision());
        }
    }

    private static void storeRevision(PolicySet set, Instant when) {
        if (StoredRevision.findById(set.revision()) != null) {
            return;
        }
        var r = new StoredRevision();
        r.revision = set.revision();
        r.firstSeen = when;
        r.rules = set.rules().size();
        for (var f : set.sources()) {
            r.files.put(f.getKey(), f.getValue());
        }
        r.persist();
    }

    /** The annotation file's text, trimmed and cut to {@value #MAX_ANNOTATION} characters; null if there is none. */
    String annotation() {
        Path file = store.directory().resolve(config.annotationFile());
        try {
            if (!Files.isRegularFile(file)) {
                return null;
            }
            String text = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (text.isEmpty()) {
                return null;
            }
            return text.length() > MAX_ANNOTATION ? text.substring(0, MAX_ANNOTATION) : text;
        } catch (IOException | RuntimeException e) {
            LOG.warnf("cannot read the revision annotation %s: %s", file, e.getMessage());
            return null;
        }
    }
}
