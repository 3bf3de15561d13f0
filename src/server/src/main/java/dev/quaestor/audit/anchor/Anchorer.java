package dev.quaestor.audit.anchor;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.LiveLog;
import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.check.Refusal;
import dev.quaestor.evidence.check.TimeStampCheck;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.tls.TlsConfigurationRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.jboss.logging.Logger;

/**
 * Anchors this replica's checkpoints: every few seconds it reads the checkpoints its writer signed since the
 * last anchored one, asks the configured time-stamping authority for a token over each one that is due (every
 * checkpoint, every Nth, or the first after an interval), checks the token as the verifier would (imprint,
 * signature, chain to the pinned TSA root, time) and stores it beside its checkpoint.
 *
 * <p>It works apart from the request path, on a thread of its own (the schedule only hands it work), with a
 * connection from the pool for a query at a time and never while it waits for the TSA: a TSA that does not answer
 * delays anchors, never a request, and the checkpoint waits. {@code quaestor_audit_anchor_lag_seconds} says how long the oldest checkpoint due has
 * waited; once the TSA answers again, the backlog is anchored in order. A checkpoint older than
 * {@code max-delay} can no longer get a token that verifies: it is passed over, and the next checkpoint, which
 * covers its records too, is anchored instead.
 */
@Startup
@ApplicationScoped
public class Anchorer {

    private static final Logger LOG = Logger.getLogger(Anchorer.class);

    /** This replica's anchoring, as /audit/verify and the console show it. */
    public record Status(boolean enabled, String tsa, long lagSeconds, int waiting, long anchoredThrough, Instant anchoredAt,
            String lastFailure) {
    }

    private final AuditConfig.Anchor config;
    private final AnchorPolicy policy;
    private final TsaClient client;
    private final TimeStampCheck check;
    private final AnchorStore store;
    private final MeterRegistry metrics;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quaestor-anchorer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean busy = new AtomicBoolean();

    // Touched by the worker thread only, one run at a time.
    /** The last checkpoint decided on (anchored, passed over, or not due); -1: to be read from the database. */
    private long cursor = -1;
    private int sinceAnchored;
    private Instant lastAnchoredTime;
    private Instant lastPassOverLog = Instant.EPOCH;

    // Read by the gauges and the status.
    /** The time of the oldest checkpoint that is due and not yet anchored; null if none waits. */
    private volatile Instant waitingSince;
    private volatile int waiting;
    private volatile long anchoredThrough;
    private volatile Instant anchoredAt;
    private volatile String lastFailure;

    Anchorer(AuditConfig audit, LiveLog log, PinnedTsaRoots roots, AgroalDataSource ds, MeterRegistry metrics,
            TlsConfigurationRegistry tls) {
        this.config = audit.anchor();
        this.policy = new AnchorPolicy(config.every(), config.interval());
        this.metrics = metrics;
        this.store = new AnchorStore(ds, log.logId());
        if (config.tsaUrl().isEmpty()) {
            this.client = null;
            this.check = null;
            return;
        }
        this.check = roots.check().orElseThrow();
        this.client = new TsaClient(new TsaClient.Target(config.tsaUrl().get(), config.username(), config.password(),
                ssl(config.tlsConfigurationName(), tls), config.timeout(), config.policy()));
        Gauge.builder("quaestor.audit.anchor.lag", this, Anchorer::lagSeconds).baseUnit("seconds")
                .description("How long the oldest checkpoint due for a time-stamp has waited for it (0: none waits)").register(metrics);
        Gauge.builder("quaestor.audit.anchor.waiting", this, a -> a.waiting)
                .description("Checkpoints signed after the last anchored one, not yet anchored or passed over").register(metrics);
        LOG.infof("anchoring checkpoints of log %s with the time-stamping authority %s", log.logId(), config.tsaUrl().get());
    }

    private static SSLContext ssl(Optional<String> name, TlsConfigurationRegistry tls) {
        if (name.isEmpty()) {
            return null;
        }
        var configuration = tls.get(name.get()).orElseThrow(() -> new IllegalStateException(
                "quaestor.audit.anchor.tls-configuration-name: no TLS configuration quarkus.tls." + name.get() + ".*"));
        try {
            return configuration.createSSLContext();
        } catch (Exception e) {
            throw new IllegalStateException("quaestor.audit.anchor.tls-configuration-name: TLS configuration " + name.get()
                    + " cannot be used: " + e.getMessage(), e);
        }
    }

    public Status status() {
        return new Status(client != null, client == null ? null : client.url().toString(), lagSeconds(), waiting, anchoredThrough,
                anchoredAt, lastFailure);
    }

    long lagSeconds() {
        Instant since = waitingSince;
        return since == null ? 0 : Math.max(0, Duration.between(since, Instant.now()).getSeconds());
    }

    /** Hands a run to the worker, unless one is still going (waiting on the TSA, or working through a backlog). */
    @Scheduled(every = "${quaestor.audit.anchor.poll:2S}")
    void tick() {
        if (client == null || !busy.compareAndSet(false, true)) {
            return;
        }
        try {
            worker.execute(this::run);
        } catch (RejectedExecutionException e) {
            busy.set(false); // shutting down
        }
    }

    private void run() {
        try {
            anchorDue();
        } catch (SQLException e) {
            failed("database", "cannot read or store anchors: " + e.getMessage());
            cursor = -1; // start again from what is stored
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failed("error", "anchoring failed: " + e);
            cursor = -1;
        } finally {
            busy.set(false);
        }
    }

    @PreDestroy
    void stop() {
        worker.shutdownNow();
    }

    /** Anchors the checkpoints that are due, in order, until the TSA fails or none is left. */
    private void anchorDue() throws SQLException, InterruptedException {
        if (cursor < 0) {
            AnchorStore.Signed last = store.lastAnchored();
            cursor = last == null ? 0 : last.size();
            lastAnchoredTime = last == null ? null : last.time();
            anchoredThrough = cursor;
            sinceAnchored = 0;
        }
        var next = store.after(cursor);
        waiting = next.size();
        for (AnchorStore.Signed cp : next) {
            sinceAnchored++;
            if (!policy.due(sinceAnchored, cp.time(), lastAnchoredTime)) {
                cursor = cp.size();
                waiting--;
                continue;
            }
            if (cp.time() == null || Instant.now().isAfter(cp.time().plus(config.maxDelay()).minus(config.timeout()))) {
                passOver(cp, "it was signed more than " + config.maxDelay() + " ago, so no token for it would verify");
                continue;
            }
            if (waitingSince == null) {
                waitingSince = cp.time();
            }
            if (!anchor(cp)) {
                return; // tried again at the next tick; the lag keeps growing meanwhile
            }
        }
        waitingSince = null;
    }

    /** Gets, checks and stores the token of one checkpoint; false if that did not happen and should be tried again. */
    private boolean anchor(AnchorStore.Signed cp) throws SQLException, InterruptedException {
        byte[] token;
        try {
            token = client.stamp(Anchor.imprint(cp.text()));
        } catch (TsaClient.Failure f) {
            failed(f.reason, f.getMessage());
            return false;
        }
        TimeStampCheck.Stamp stamp;
        try {
            stamp = check.check(token, cp.text(), cp.time());
        } catch (Refusal e) {
            if (Instant.now().isAfter(cp.time().plus(config.maxDelay()))) {
                passOver(cp, "its token came too late to verify");
                return true;
            }
            failed("unverified", "the TSA's token for the checkpoint at " + cp.size() + " records does not verify: it " + e.getMessage()
                    + " (quaestor.audit.anchor.tsa-ca, and this server's clock against the TSA's)");
            return false;
        }
        store.store(cp.size(), Anchor.field(token), stamp.time(), stamp.tsa());
        metrics.counter("quaestor.audit.anchors").increment();
        cursor = cp.size();
        sinceAnchored = 0;
        lastAnchoredTime = cp.time();
        anchoredThrough = cp.size();
        anchoredAt = stamp.time();
        waiting--;
        waitingSince = null;
        lastFailure = null;
        return true;
    }

    private void passOver(AnchorStore.Signed cp, String why) {
        metrics.counter("quaestor.audit.anchor.skipped").increment();
        cursor = cp.size();
        waiting--;
        waitingSince = null;
        if (Instant.now().isAfter(lastPassOverLog.plusSeconds(60))) {
            lastPassOverLog = Instant.now();
            LOG.warnf("the checkpoint of log at %d records is not anchored: %s; the next anchored checkpoint covers its records",
                    cp.size(), why);
        }
    }

    private void failed(String reason, String message) {
        metrics.counter("quaestor.audit.anchor.failures", "reason", reason).increment();
        if (!message.equals(lastFailure)) {
            LOG.warnf("anchoring is behind: %s", message);
        }
        lastFailure = message;
    }
}
