package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.RequestIds;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The one writer of this replica's audit log. Requests hand it records and wait; a single thread
 * takes whatever has queued up, places it in the log ({@link LogHead}: seq, leaf hashes, the tree
 * nodes it completes), adds a signed checkpoint when one is due, and stores the batch all or nothing
 * ({@link SealedBatch}: on PostgreSQL one autocommit statement, so one round trip per batch), and only if the log's
 * head is still where this writer read it ({@link HeadRow}: no second writer stored meanwhile). Records
 * that arrive meanwhile form the next batch, so batches grow with load and the cost per record falls.
 * Each waiter is released when its own batch is durable, and batches are stored one after another,
 * so the log's commit order is its seq order.
 *
 * <p>Failure is explicit: a full queue refuses at once, a batch that cannot be stored fails every
 * waiter in it, and the head is then re-read from the database so that the next batch continues
 * exactly where committed history ends. Nothing is buffered beyond the queue bound. The writer
 * records its own life: {@code AUDIT_START} (and {@code KEY_ROTATION} when it signs with a key the
 * log's last checkpoint was not signed with), {@code AUDIT_PAUSE} once it commits again after
 * failing (how many records were refused, first and last time), and {@code AUDIT_STOP} at shutdown,
 * followed by a final checkpoint.
 *
 * <p>Record times never go backwards within a log, and the last record of every month gets a signed
 * checkpoint and its small subtrees stored, so a month's partition always ends at a signed head and
 * can be archived on its own (docs/audit.md, "Retention"). The month's partition is made before its batch
 * ({@link AuditPartitions}), and the signing key named in the database when the head is read ({@link KeyRegistration}).
 */
public final class GroupCommitWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);

    /**
     * Records owed to the log at most ({@link #submitOwed}): each says what a request already did, so none is dropped
     * while the database is away, up to this many (a few KiB each); past it one is dropped, and logged.
     */
    static final int OWED_LIMIT = 10_000;

    /**
     * A queued record; {@code after}, if set, is a record it must not be stored without (its request's decision);
     * {@code correction}, if set, is the record that says how its request ended should it be stored although its
     * waiter was told it was not ({@link BatchInDoubt}); {@code call}: the record a call happens under, whose
     * correction is owed whenever that happens, as its caller records nothing after it ({@link #submitCall}).
     */
    private record Pending(AuditEvent event, CompletableFuture<Void> done, CompletableFuture<Void> after, String share,
            Supplier<AuditEvent> correction, boolean call) {
    }

    private final javax.sql.DataSource ds;
    private final AuditConfig config;
    private final SigningKey key;
    private final FieldHasher hasher;
    private final String logId;
    private final String origin;
    private final Clock clock;
    private final BlockingQueue<Pending> queue;
    private final QueueShares shares;
    private final Timer commitTimer;
    private final DistributionSummary batchSize;
    private final Counter failures;
    private volatile boolean running = true;
    /** Set once the AUDIT_STOP is queued: the writer then drains the queue and ends. */
    private volatile boolean stopQueued;
    private Thread thread;
    // Callers waiting for a checkpoint over everything committed when they asked (signNow).
    private final ConcurrentLinkedQueue<CompletableFuture<Void>> signRequests = new ConcurrentLinkedQueue<>();
    /** Records owed by callers ({@link #submitOwed}), taken into {@link BatchInDoubt#owe} by the writer thread. */
    private final ConcurrentLinkedQueue<AuditEvent> owedByCallers = new ConcurrentLinkedQueue<>();
    /** How many are in {@link #owedByCallers}. */
    private final java.util.concurrent.atomic.AtomicInteger owedWaiting = new java.util.concurrent.atomic.AtomicInteger();
    /** How many records the writer holds owed, not yet stored (as of its last batch). */
    private volatile int owedHeld;

    // The log's head as stored (null: to be read again); touched only by the writer thread.
    private LogHead head;
    private final WriterLife life;
    private long lastIdleFailureLog = System.nanoTime() - TimeUnit.MINUTES.toNanos(1);
    private final AuditPartitions partitions;
    private WriterLease lease;
    private long leaseCheckedAt;
    private final BatchInDoubt inDoubt = new BatchInDoubt();

    // The head as committed, for the online verifier's truncation check.
    private volatile long committedSeq;
    /** How far this writer has stored and signed: the log read again may not be shorter. */
    private final HistoryFloor floor;

    public GroupCommitWriter(javax.sql.DataSource ds, AuditConfig config, SigningKey key, FieldHasher hasher, String logId,
            MeterRegistry metrics) {
        this(ds, config, key, hasher, logId, metrics, Clock.systemUTC());
    }

    /** {@code clock} stamps the writer's own records and checkpoints (a test can write a past month's log). */
    public GroupCommitWriter(javax.sql.DataSource ds, AuditConfig config, SigningKey key, FieldHasher hasher, String logId,
            MeterRegistry metrics, Clock clock) {
        this.clock = clock;
        this.ds = ds;
        this.config = config;
        this.key = key;
        this.hasher = hasher;
        this.logId = logId;
        this.floor = new HistoryFloor(logId);
        this.origin = config.logName() + "/" + logId;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.shares = new QueueShares(config.queueCapacity(), config.queueShare(), metrics);
        this.commitTimer = Timer.builder("quaestor.audit.commit").description("Audit batch latency, from chaining to durable")
                .publishPercentiles(0.5, 0.99).register(metrics);
        this.batchSize = DistributionSummary.builder("quaestor.audit.batch.size").description("Records per audit batch")
                .register(metrics);
        this.failures = metrics.counter("quaestor.audit.failures");
        this.life = new WriterLife(origin, key, clock);
        this.partitions = new AuditPartitions(ds, clock, config.commitTimeout().toMillis());
        metrics.gauge("quaestor.audit.queue.depth", queue, BlockingQueue::size);
    }

    public String logId() {
        return logId;
    }

    /** The origin line of this log's checkpoints. */
    public String origin() {
        return origin;
    }

    public void start() {
        start(null);
    }

    /**
     * Starts writing, holding {@code lease} (null: none, for a log no other process can reach): it is taken before the
     * first record is written and checked every few seconds after, and while another process holds it every batch
     * is refused and nothing is written.
     */
    public void start(WriterLease lease) {
        this.lease = lease;
        thread = new Thread(this::run, "quaestor-audit-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a record and waits until it is committed; throws {@link AuditUnavailableException} otherwise. */
    public void append(AuditEvent event) {
        submit(event, null).await();
    }

    /**
     * Queues a record and returns at once; {@link PendingCommit#await} then waits for its commit. With
     * {@code after}, the record is stored only if that earlier record was: a request's outcome is never
     * stored without its decision, even when the decision's batch fails after the outcome was queued
     * (both are then refused). A full queue or a stopped writer refuses here ({@link AuditUnavailableException}).
     */
    public PendingCommit submit(AuditEvent event, PendingCommit after) {
        return submit(event, after, null);
    }

    /**
     * As {@link #submit(AuditEvent, PendingCommit)}; if the record's batch is stored although its store was reported
     * failed (a commit whose reply was lost) and its waiter was told so, the record {@code correction} gives is stored
     * after it, saying how the request really ended. Needed only where the caller cannot say so itself: when
     * {@code after} failed with it, since the caller's own record would then be stored only if {@code after} was.
     */
    public PendingCommit submit(AuditEvent event, PendingCommit after, Supplier<AuditEvent> correction) {
        if (after != null && after.failed()) {
            failures.increment();
            throw new AuditUnavailableException(new IllegalStateException("the request's decision record was not committed"));
        }
        return queue(event, after == null ? null : after.done, correction, false);
    }

    /**
     * Queues the record a call happens under (or is refused under) and returns at once; {@link PendingCommit#await}
     * then waits for it, and a call whose wait fails does not happen. Should the record be stored all the same (the
     * writer had taken it when the wait ended, or its commit's reply was lost), the record {@code refused} gives is
     * stored after it, by the writer, in the next batch: the first never stands alone for a call that did not happen.
     */
    public PendingCommit submitCall(AuditEvent event, Supplier<AuditEvent> refused) {
        return queue(event, null, refused, true);
    }

    /**
     * Owes a record to the log: one that says what a request already did and that nothing can refuse any more (an
     * answer, or part of one, sent or lost after its {@code OUTCOME} was recorded or could not be). Not queued with
     * the rest, so not refused when the queue is full or a batch fails: it is stored with the next batch that is
     * stored, however long the database is away, before that batch's records. Its request's {@code DECISION} must be
     * stored already. Past {@link #OWED_LIMIT} records owed and not yet stored, it is dropped and logged.
     */
    public void submitOwed(AuditEvent event) {
        if (owedWaiting.incrementAndGet() + owedHeld > OWED_LIMIT) {
            owedWaiting.decrementAndGet();
            failures.increment();
            LOG.errorf("request %s: a record owed to the audit log was dropped: %d are owed already (the database has"
                    + " been away for long): %s %s", event.requestId(), OWED_LIMIT, event.outcome(), event.detail());
            return;
        }
        owedByCallers.add(event);
    }

    /** Queues a record within its subject's share of the queue, or refuses it ({@link AuditUnavailableException}). */
    private PendingCommit queue(AuditEvent event, CompletableFuture<Void> after, Supplier<AuditEvent> correction, boolean call) {
        String share = QueueShares.keyOf(event);
        if (!shares.enter(share)) {
            failures.increment();
            throw new AuditUnavailableException(new IllegalStateException("the subject's share of the audit queue is full"));
        }
        var p = new Pending(event, new CompletableFuture<>(), after, share, correction, call);
        if (!running || !queue.offer(p)) {
            shares.leave(share);
            failures.increment();
            throw new AuditUnavailableException(new IllegalStateException(running ? "audit queue full" : "audit writer stopped"));
        }
        return new PendingCommit(p.done(), config.commitTimeout().toMillis());
    }

    /**
     * Queues a record without waiting for it, for events on threads that must not block (a refused
     * authentication on the event loop). Nothing is served on such a request whether or not the
     * record makes it; a full queue drops it and counts the failure.
     */
    public boolean offer(AuditEvent event) {
        return offer(event, null);
    }

    /**
     * As {@link #offer(AuditEvent)}; {@code ifNotStored}, if given, runs (on the writer's thread, so briefly) should
     * the record, once queued, not be stored (its batch failed, or its commit is in doubt).
     */
    public boolean offer(AuditEvent event, Runnable ifNotStored) {
        String share = QueueShares.keyOf(event);
        if (!shares.enter(share)) {
            failures.increment();
            return false;
        }
        var done = new CompletableFuture<Void>();
        if (ifNotStored != null) {
            done.whenComplete((v, e) -> {
                if (e != null) {
                    ifNotStored.run();
                }
            });
        }
        boolean queued = running && queue.offer(new Pending(event, done, null, share, null, false));
        if (!queued) {
            shares.leave(share);
            failures.increment();
        }
        return queued;
    }

    /** Stops taking records, commits what is queued and an {@code AUDIT_STOP}, and signs the final head. */
    public void stop() {
        running = false; // nothing more is taken, so the AUDIT_STOP below is the last record queued
        var last = AuditEvent.of(AuditEvent.Kind.AUDIT_STOP, RequestIds.next()).time(clock.instant()).method("audit/stop")
                .detail("writer stopping; log " + origin).build();
        // Past the shares (it is the writer's own record); only a full queue keeps it out, and that is said.
        if (!queue.offer(new Pending(last, new CompletableFuture<>(), null, null, null, false))) {
            failures.increment();
            LOG.errorf("log %s: the AUDIT_STOP record could not be queued (the queue is full); the final head is signed"
                    + " without it", origin);
        }
        stopQueued = true;
        if (thread != null) {
            try {
                thread.join(config.commitTimeout().toMillis() * 2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Asks for a signed checkpoint over every record committed so far, without waiting for the interval; the
     * future completes once it is stored (at once if the head is already signed). The writer looks at requests
     * whenever it writes a batch or every 200 ms when idle.
     */
    public CompletableFuture<Void> signNow() {
        var f = new CompletableFuture<Void>();
        signRequests.add(f);
        return f;
    }

    /** Whether the subject's records waiting in the queue are at its share ({@code quaestor.audit.queue-share}). */
    public boolean atShare(String subject) {
        return shares.full(subject);
    }

    /** The committed size of the log, as this writer knows it: for the online verifier's truncation check. */
    public long headSeq() {
        return committedSeq;
    }

    private void run() {
        while (!stopQueued || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (head == null || !signRequests.isEmpty() || !inDoubt.owed().isEmpty() || !owedByCallers.isEmpty()
                            || head.checkpointDue(config.checkpointEvery(), config.checkpointInterval().toNanos())) {
                        write(List.of()); // also reads the head, and records the start, as soon as the database answers
                    }
                    continue;
                }
                var batch = new ArrayList<Pending>(Math.min(config.maxBatch(), queue.size() + 1));
                batch.add(first);
                queue.drainTo(batch, config.maxBatch() - 1);
                batch.forEach(p -> shares.leave(p.share()));
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.error("audit writer error", e);
            }
        }
        if (head != null) {
            write(List.of()); // the final checkpoint, if the last batch did not sign its head
        }
    }

    /** Places and stores a batch (and any checkpoint due), then releases its waiters. */
    private void write(List<Pending> batch) {
        long start = System.nanoTime();
        batch = withoutOrphans(batch);
        for (AuditEvent e; (e = owedByCallers.poll()) != null;) {
            owedWaiting.decrementAndGet();
            inDoubt.owe(e);
        }
        owedHeld = inDoubt.owed().size();
        var signs = new ArrayList<CompletableFuture<Void>>();
        for (CompletableFuture<Void> f; (f = signRequests.poll()) != null;) {
            signs.add(f);
        }
        SealedBatch sealed = null;
        try {
            checkLease();
            partitions.ensure(batch.stream().map(p -> p.event().time()).toList(), head == null ? null : head.lastTime());
            try (Connection c = ds.getConnection()) {
                if (!c.getAutoCommit()) {
                    c.setAutoCommit(true);
                }
                if (head == null) {
                    inDoubt.settle(c, life, origin); // first: a batch in doubt must be over before the head is read
                    LogHead stored = LogHead.load(c, logId, origin);
                    floor.check(stored);
                    head = stored;
                    KeyRegistration.register(c, key);
                }
                var events = new ArrayList<AuditEvent>(batch.size() + inDoubt.owed().size() + 3);
                life.addTo(events, head);
                events.addAll(inDoubt.owed());
                batch.forEach(p -> events.add(p.event()));
                sealed = head.seal(events, hasher, key, config.checkpointEvery(), config.checkpointInterval().toNanos(),
                        !signs.isEmpty() || !running && queue.isEmpty(), clock.instant());
                if (sealed.isEmpty()) {
                    signs.forEach(f -> f.complete(null));
                    return;
                }
                if (partitions.onPostgres()) {
                    sealed.storeInPostgres(c);
                } else {
                    sealed.storeInTransaction(c);
                }
            }
        } catch (Exception e) {
            Boolean stored = sealed == null ? Boolean.FALSE : storedAfterAll(sealed);
            if (!Boolean.TRUE.equals(stored)) {
                head = null; // the next batch starts from the head as stored
                partitions.forget();
                failWaiters(batch, e);
                if (stored == null) {
                    inDoubt.doubt(sealed, correctionsOf(batch), batch.size());
                }
                signs.forEach(f -> f.completeExceptionally(e));
                return;
            }
            LOG.warnf("audit batch of %d record(s) was stored although its store failed (%s): the commit's reply was lost",
                    sealed.rows.size(), e.toString());
        }
        head.advance(sealed);
        floor.reached(head);
        life.stored();
        inDoubt.paid();
        owedHeld = 0;
        committedSeq = head.size();
        var refused = new ArrayList<Pending>();
        for (Pending p : batch) {
            if (!p.done().complete(null) && p.call()) {
                // Its waiter gave up while this batch was stored: the call was refused, and its record is in the log.
                refused.add(p);
            }
        }
        correctionsOf(refused).forEach(c -> inDoubt.owe(c.get()));
        signs.forEach(f -> f.complete(null));
        if (!batch.isEmpty()) {
            commitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            batchSize.record(batch.size());
        }
    }

    /**
     * Whether a batch whose store failed is in the log after all ({@link FailedStore}). Asked on a connection of its
     * own; null if the database cannot answer now (the batch is then {@link BatchInDoubt} until the head is read
     * again).
     */
    private Boolean storedAfterAll(SealedBatch sealed) {
        try (Connection c = ds.getConnection()) {
            return FailedStore.stored(c, sealed);
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The corrections of a failed batch's records whose request's earlier record failed with them: their requests
     * cannot record how they ended themselves (what they queue is stored only after the earlier record), so the
     * writer does if the batch turns out to be stored.
     */
    private static List<Supplier<AuditEvent>> correctionsOf(List<Pending> failed) {
        // One per request, its last: a request's DECISION and OUTCOME in one batch are corrected once, by the
        // OUTCOME's, which says what the client got.
        var out = new java.util.LinkedHashMap<String, Supplier<AuditEvent>>();
        for (Pending p : failed) {
            if (p.correction() != null && (p.call() || p.after() != null && p.after().isCompletedExceptionally())) {
                out.remove(p.event().requestId());
                out.put(p.event().requestId(), p.correction());
            }
        }
        return List.copyOf(out.values());
    }

    /** Takes the lease before the log's head is read, and checks it is still held every few seconds after. */
    private void checkLease() throws java.sql.SQLException {
        if (lease != null && (head == null || lease.givenBack() || System.nanoTime() - leaseCheckedAt > TimeUnit.SECONDS.toNanos(5))) {
            lease.take();
            leaseCheckedAt = System.nanoTime();
        }
    }

    /**
     * Leaves out records given up by their waiters (the commit timeout passed while they queued: their requests were
     * refused, so storing them now would say more than happened) and, failing them, records whose earlier record
     * failed. Batches are stored one after another and each releases its waiters before the next is chained, so an
     * earlier record is either settled by now or in this same batch, where it is stored or refused together with this
     * one.
     */
    private List<Pending> withoutOrphans(List<Pending> batch) {
        List<Pending> kept = batch;
        List<Pending> givenUp = List.of();
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            boolean left = p.done().isDone();
            if (left || p.after() != null && p.after().isCompletedExceptionally()) {
                if (kept == batch) {
                    kept = new ArrayList<>(batch.subList(0, i));
                }
                if (left) {
                    givenUp = givenUp.isEmpty() ? new ArrayList<>() : givenUp;
                    givenUp.add(p);
                } else {
                    failWaiters(List.of(p), new IllegalStateException("the request's decision record was not committed"));
                }
            } else if (kept != batch) {
                kept.add(p);
            }
        }
        if (!givenUp.isEmpty()) {
            failWaiters(givenUp, new IllegalStateException("given up by their waiters at the commit timeout"));
        }
        return kept;
    }

    private void failWaiters(List<Pending> batch, Exception e) {
        failures.increment(batch.size());
        if (!batch.isEmpty()) {
            life.refused(batch.size());
            LOG.errorf("audit batch of %d record(s) not committed: %s", batch.size(), e.toString());
        } else if (System.nanoTime() - lastIdleFailureLog > TimeUnit.SECONDS.toNanos(30)) {
            // Retried every 200 ms while nothing waits: said once in a while, not at every try.
            lastIdleFailureLog = System.nanoTime();
            LOG.warnf("audit log cannot reach its database (retrying): %s", e.toString());
        }
        batch.forEach(p -> p.done().completeExceptionally(e));
    }
}
