package dev.quaestor.audit;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.LiveLog;
import dev.quaestor.audit.write.GroupCommitWriter;
import dev.quaestor.audit.write.RecordQueue;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.write.PinnedKeys;
import dev.quaestor.audit.write.SigningKey;
import dev.quaestor.audit.write.WriterLease;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Application;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.annotation.Priority;
import java.net.InetAddress;
import java.util.Set;
import dev.quaestor.evidence.VerifierKey;

/**
 * Appends audit records: each {@link #append} returns only once its record is committed in this
 * replica's log (and, within the checkpoint interval, under a signed checkpoint); otherwise it throws {@link AuditUnavailableException}
 * so the caller fails closed. {@link #submit} and {@link #submitAfter} queue without waiting, for a
 * request that does other work while its first record commits and waits once, for its last.
 *
 * <p>One live process writes a log ({@link WriterLease}): a process whose chain id another live process writes does
 * not start, and writes nothing into that log.
 */
@Startup
@ApplicationScoped
public class AuditLog implements LiveLog, RecordQueue {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(AuditLog.class);

    private final GroupCommitWriter writer;
    private final SigningKey key;
    private final PinnedKeys trusted;
    private final FieldHasher hasher;
    private final String logName;
    private final long signWait;
    private final WriterLease lease;

    /**
     * The application whose stop has begun. A job or request still running while the container ends its beans can
     * reach the log after it was closed, and the container then makes a new one: that one must not take the lease
     * and start a writer, for nothing would ever stop them and the next start of this log would find it held.
     */
    private static volatile Application stopping;

    /**
     * Opens the log on {@code ds} and starts its writer. Public: a log is opened outside the container too, by tools
     * that write a log of their own (the audit benchmarks); whoever opens one so ends it with {@link #close}.
     */
    public AuditLog(@io.quarkus.agroal.DataSource(AuditPools.WRITER) AgroalDataSource ds, AuditConfig config, MeterRegistry metrics) {
        Application app = Application.currentApplication();
        if (app != null && app == stopping) {
            throw new AuditUnavailableException(new IllegalStateException("the application is stopping: the audit log is not opened again"));
        }
        this.key = SigningKey.load(config);
        this.trusted = PinnedKeys.load(config, key.verifierKey());
        this.logName = config.logName();
        this.signWait = config.commitTimeout().toMillis();
        this.hasher = new FieldHasher(config.hashedFields().orElse(java.util.List.of()), config.hmacKey().orElse(null));
        String logId = config.chainId().orElseGet(AuditLog::hostName);
        this.writer = new GroupCommitWriter(ds, config, key, hasher, logId, metrics);
        this.lease = new WriterLease(ds, logId, writer.origin());
        try {
            lease.take();
        } catch (WriterLease.Taken e) {
            throw new IllegalStateException(e.getMessage());
        } catch (java.sql.SQLException e) {
            LOG.warnf("cannot take the writer lease of log %s yet (%s): the writer takes it before its first record",
                    writer.origin(), e.getMessage());
        }
        writer.start(lease);
    }

    /** How chosen fields are stored (see {@link FieldHasher}). */
    @Override
    public FieldHasher hasher() {
        return hasher;
    }

    public void append(AuditEvent e) {
        writer.append(e);
    }

    /**
     * Appends the record a call happens under, or is refused under, and waits for it: a call whose record is not
     * confirmed (its batch failed, or the commit timeout passed) does not happen ({@link AuditUnavailableException}).
     * Should that record be stored all the same (the writer had taken it when the wait ended, or its commit's reply
     * was lost), the writer stores a second record under its request id after it, saying the call was refused for it:
     * the first never stands alone for a call that did not happen.
     */
    public void appendCall(AuditEvent e) {
        writer.submitCall(e, () -> e.ended("aborted", "not answered: the audit log did not confirm this record in time,"
                + " and the call was refused for it")).await();
    }

    /**
     * Queues the record a request proceeds under (its {@code DECISION}) without waiting: a request whose wait for it
     * fails is refused. Should it be stored all the same (the writer had taken it when the wait ended, or its commit's
     * reply was lost), the record {@code refused} gives is stored after it, so it never stands alone for a request
     * that was refused ({@link GroupCommitWriter#submitCall}).
     */
    public PendingCommit submitCall(AuditEvent e, java.util.function.Supplier<AuditEvent> refused) {
        return writer.submitCall(e, refused);
    }

    /**
     * Owes a record that says what a request already did: stored with the next batch that is stored, even after the
     * database was away ({@link GroupCommitWriter#submitOwed}). Its request's {@code DECISION} must be stored already.
     */
    public void submitOwed(AuditEvent e) {
        writer.submitOwed(e);
    }

    /**
     * Queues a record without waiting; {@link PendingCommit#await} waits for it. Throws
     * {@link AuditUnavailableException} at once if the queue is full.
     */
    @Override
    public PendingCommit submit(AuditEvent e) {
        return writer.submit(e, null);
    }

    /** As {@link #submit}, but the record is stored only if {@code first} was (a request's outcome after its decision). */
    public PendingCommit submitAfter(PendingCommit first, AuditEvent e) {
        return writer.submit(e, first);
    }

    /**
     * As {@link #submitAfter(PendingCommit, AuditEvent)} ({@code first} may be null), with the record that says how
     * the request really ended should {@code e} be stored although its waiter was told it was not (see
     * {@link GroupCommitWriter#submit(AuditEvent, PendingCommit, java.util.function.Supplier)}).
     */
    public PendingCommit submitAfter(PendingCommit first, AuditEvent e, java.util.function.Supplier<AuditEvent> correction) {
        return writer.submit(e, first, correction);
    }

    /** Queues a record without waiting (see {@link GroupCommitWriter#offer}); false if it was dropped. */
    public boolean appendLater(AuditEvent e) {
        return writer.offer(e);
    }

    /** As {@link #appendLater(AuditEvent)}; {@code ifNotStored} runs should the record, once queued, not be stored. */
    public boolean appendLater(AuditEvent e, Runnable ifNotStored) {
        return writer.offer(e, ifNotStored);
    }

    /**
     * Whether the subject's records waiting for this replica's writer are at the subject's share of the queue
     * ({@code quaestor.audit.queue-share}): its next record would be refused, so its requests are turned away first.
     */
    public boolean atQueueShare(String subject) {
        return writer.atShare(subject);
    }

    /** This replica's log id. */
    @Override
    public String logId() {
        return writer.logId();
    }

    /** The origin line of this replica's checkpoints. */
    public String origin() {
        return writer.origin();
    }

    /** The origin line of any log's checkpoints. */
    @Override
    public String originOf(String logId) {
        return logName + "/" + logId;
    }

    /** The checkpoint-signing key as a C2SP verifier key string: what verifiers pin. */
    public String verifierKey() {
        return key.verifierKey().toString();
    }

    /** The checkpoint-signing public key (X.509, base64). */
    public String publicKeyBase64() {
        return key.publicKeyBase64();
    }

    public String keyId() {
        return key.verifierKey().keyIdHex();
    }

    /** The keys the online check trusts (current and configured), never keys found in the database. */
    public Set<VerifierKey> trustedKeys() {
        return trusted.all();
    }

    /** The same, as verifier key strings. */
    public java.util.List<String> trustedKeyStrings() {
        return trusted.describe();
    }

    /** The checkpoint-signing key, for another writer of this replica (the archive test writes a chain of its own). */
    public SigningKey signingKey() {
        return key;
    }

    /**
     * Signs a checkpoint over every record committed so far now rather than at the next interval, and waits for it
     * (at most the commit timeout); false if it could not be stored in that time. The online check asks for one first;
     * tests use it instead of waiting out the interval.
     */
    @Override
    public boolean signCheckpointNow() {
        try {
            writer.signNow().get(signWait, java.util.concurrent.TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    public long committedHead() {
        return writer.headSeq();
    }

    /** Shutdown commits what is queued and signs the final head (runs before the datasource closes). */
    void shutdown(@Observes @Priority(1) ShutdownEvent ev) {
        stopping = Application.currentApplication();
        close();
    }

    /** Stops taking records, commits what is queued and an {@code AUDIT_STOP}, and signs the final head. */
    public void close() {
        writer.stop();
        lease.close();
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "local";
        }
    }
}
