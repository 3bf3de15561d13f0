package dev.quaestor.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one writer of this replica's audit chain. Requests hand it records and wait; a single thread
 * takes whatever has queued up, chains it (seq, prev, hash), adds a signed checkpoint when one is
 * due, and stores the batch all or nothing ({@link ChainedBatch}: on PostgreSQL one autocommit
 * statement, so one round trip per batch). Records that arrive meanwhile form the next batch, so
 * batches grow with load and the cost per record falls. Each waiter is released when its own batch
 * is durable, and batches are stored one after another, so the chain's commit order is its seq order.
 *
 * <p>Failure is explicit: a full queue refuses at once, a batch that cannot be stored fails every
 * waiter in it, and the chain head is then re-read from the database so that the next batch
 * continues exactly where committed history ends. Nothing is buffered beyond the queue bound.
 *
 * <p>Record times never go backwards within a chain (a record stamped earlier than its predecessor
 * takes its predecessor's time), and the last record of every month gets a signed checkpoint, so a
 * month's partition always ends at a signed head and can be archived on its own (README "Retention").
 */
final class GroupCommitWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);

    /** A queued record; {@code after}, if set, is a record it must not be stored without (its request's decision). */
    private record Pending(AuditEvent event, CompletableFuture<Void> done, CompletableFuture<Void> after) {
    }

    private final javax.sql.DataSource ds;
    private final AuditConfig config;
    private final SigningKey key;
    private final FieldHasher hasher;
    private final String chain;
    private final BlockingQueue<Pending> queue;
    private final MessageDigest sha256 = ChainVerifier.newDigest();
    private final Timer commitTimer;
    private final DistributionSummary batchSize;
    private final Counter failures;
    private volatile boolean running = true;
    private Thread thread;

    // The chain head as stored; touched only by the writer thread.
    private long headSeq;
    private String headHash = ChainVerifier.GENESIS;
    private Instant headTime;
    private long checkpointSeq;
    private long checkpointNanos = System.nanoTime();
    private boolean headKnown;
    private Boolean postgres; // null until known
    private long nextAheadAttempt = System.nanoTime();
    private final Set<YearMonth> partitions = new HashSet<>();

    // The head as committed, for the online verifier's truncation check.
    private volatile long committedSeq;

    GroupCommitWriter(javax.sql.DataSource ds, AuditConfig config, SigningKey key, FieldHasher hasher, String chain,
            MeterRegistry metrics) {
        this.ds = ds;
        this.config = config;
        this.key = key;
        this.hasher = hasher;
        this.chain = chain;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.commitTimer = Timer.builder("quaestor.audit.commit").description("Audit batch latency, from chaining to durable")
                .publishPercentiles(0.5, 0.99).register(metrics);
        this.batchSize = DistributionSummary.builder("quaestor.audit.batch.size").description("Records per audit batch")
                .register(metrics);
        this.failures = metrics.counter("quaestor.audit.failures");
        metrics.gauge("quaestor.audit.queue.depth", queue, BlockingQueue::size);
    }

    String chain() {
        return chain;
    }

    void start() {
        thread = new Thread(this::run, "quaestor-audit-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a record and waits until it is committed; throws {@link AuditUnavailableException} otherwise. */
    void append(AuditEvent event) {
        submit(event, null).await();
    }

    /**
     * Queues a record and returns at once; {@link PendingCommit#await} then waits for its commit. With
     * {@code after}, the record is stored only if that earlier record was: a request's outcome is never
     * stored without its decision, even when the decision's batch fails after the outcome was queued
     * (both are then refused). A full queue or a stopped writer refuses here ({@link AuditUnavailableException}).
     */
    PendingCommit submit(AuditEvent event, PendingCommit after) {
        if (after != null && after.failed()) {
            failures.increment();
            throw new AuditUnavailableException(new IllegalStateException("the request's decision record was not committed"));
        }
        var p = new Pending(event, new CompletableFuture<>(), after == null ? null : after.done);
        if (!running || !queue.offer(p)) {
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
    boolean offer(AuditEvent event) {
        boolean queued = running && queue.offer(new Pending(event, new CompletableFuture<>(), null));
        if (!queued) {
            failures.increment();
        }
        return queued;
    }

    /** Stops taking records, commits what is queued, and signs the final head. */
    void stop() {
        running = false;
        if (thread != null) {
            try {
                thread.join(config.commitTimeout().toMillis() * 2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The committed head seq, as this writer knows it: for the online verifier's truncation check. */
    long headSeq() {
        return committedSeq;
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (checkpointDue()) {
                        write(List.of());
                    }
                    continue;
                }
                var batch = new ArrayList<Pending>(Math.min(config.maxBatch(), queue.size() + 1));
                batch.add(first);
                queue.drainTo(batch, config.maxBatch() - 1);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.error("audit writer error", e);
            }
        }
        if (headKnown && headSeq > checkpointSeq) {
            write(List.of()); // final checkpoint on shutdown
        }
    }

    private boolean checkpointDue() {
        long pending = headSeq - checkpointSeq;
        return headKnown && pending > 0 && (pending >= config.checkpointEvery()
                || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos());
    }

    /** Chains and stores a batch (and any checkpoint due), then releases its waiters. */
    private void write(List<Pending> batch) {
        long start = System.nanoTime();
        batch = withoutOrphans(batch);
        try {
            ensurePartitions(batch);
            try (Connection c = ds.getConnection()) {
                if (!c.getAutoCommit()) {
                    c.setAutoCommit(true);
                }
                if (!headKnown) {
                    readHead(c);
                }
                var chained = chain(batch);
                if (chained.isEmpty()) {
                    return;
                }
                if (postgres == Boolean.TRUE) {
                    chained.storeInPostgres(c);
                } else {
                    chained.storeInTransaction(c);
                }
                advance(chained);
            }
        } catch (Exception e) {
            forgetHead();
            failWaiters(batch, e);
            return;
        }
        committedSeq = headSeq;
        batch.forEach(p -> p.done().complete(null));
        if (!batch.isEmpty()) {
            commitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            batchSize.record(batch.size());
        }
    }

    /**
     * Fails, and leaves out, records whose earlier record failed. Batches are stored one after another
     * and each releases its waiters before the next is chained, so an earlier record is either settled
     * by now or in this same batch, where it is stored or refused together with this one.
     */
    private List<Pending> withoutOrphans(List<Pending> batch) {
        List<Pending> kept = batch;
        for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            if (p.after() != null && p.after().isCompletedExceptionally()) {
                if (kept == batch) {
                    kept = new ArrayList<>(batch.subList(0, i));
                }
                failWaiters(List.of(p), new IllegalStateException("the request's decision record was not committed"));
            } else if (kept != batch) {
                kept.add(p);
            }
        }
        return kept;
    }

    /** The batch may or may not have been stored: the next batch starts from the head as stored. */
    private void forgetHead() {
        headKnown = false;
        partitions.clear();
    }

    private void failWaiters(List<Pending> batch, Exception e) {
        failures.increment(batch.size());
        LOG.errorf("audit batch of %d record(s) not committed: %s", batch.size(), e.toString());
        batch.forEach(p -> p.done().completeExceptionally(e));
    }

    /**
     * Chains the batch after the current head, with a checkpoint at every month's end and one when
     * due by count or time (or at shutdown). The head itself moves only once the batch is stored
     * ({@link #advance}).
     */
    private ChainedBatch chain(List<Pending> batch) {
        var out = new ChainedBatch(chain, batch.size());
        long seq = headSeq;
        String prev = headHash;
        Instant prevTime = headTime;
        long signed = checkpointSeq;
        for (Pending p : batch) {
            Instant time = AuditRecords.truncate(p.event().time());
            if (prevTime != null && time.isBefore(prevTime)) {
                time = prevTime;
            }
            if (prevTime != null && !month(time).equals(month(prevTime)) && seq > signed) {
                out.checkpoints.add(checkpoint(seq, prev)); // a month ends at a signed head
                signed = seq;
            }
            var fields = AuditRecords.fields(p.event(), chain, ++seq, prev, time, hasher);
            String hash = ChainVerifier.hash(sha256, fields);
            out.rows.add(new ChainedBatch.Row(fields, time, hash));
            prev = hash;
            prevTime = time;
        }
        if (seq > signed && (seq - signed >= config.checkpointEvery()
                || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos() || !running)) {
            out.checkpoints.add(checkpoint(seq, prev));
        }
        return out;
    }

    /** The stored batch's last record becomes the head, and its last checkpoint the signed head. */
    private void advance(ChainedBatch stored) {
        if (!stored.rows.isEmpty()) {
            var last = stored.rows.get(stored.rows.size() - 1);
            headSeq = Long.parseLong(last.fields().get("seq"));
            headHash = last.hash();
            headTime = last.time();
        }
        if (!stored.checkpoints.isEmpty()) {
            checkpointSeq = stored.checkpoints.get(stored.checkpoints.size() - 1).seq();
            checkpointNanos = System.nanoTime();
        }
    }

    private static YearMonth month(Instant t) {
        return YearMonth.from(t.atOffset(ZoneOffset.UTC));
    }

    /**
     * PostgreSQL keeps audit_entry in monthly partitions, which the application may create (never
     * drop). Creating one locks the whole table, so it happens before the batch's transaction starts
     * (which would otherwise hold a lock it waits for), once per month and process: the month a batch
     * needs if it is missing (waiting at most the commit timeout), and next month's well ahead, with a
     * short lock wait that is retried a minute later if a long read holds the table.
     */
    private void ensurePartitions(List<Pending> batch) throws SQLException {
        if (postgres == Boolean.FALSE) {
            return;
        }
        var needed = new java.util.TreeSet<YearMonth>();
        for (Pending p : batch) {
            YearMonth m = month(p.event().time());
            boolean clampedLater = headKnown && headTime != null && m.isBefore(month(headTime)); // goes in the head's month
            if (!partitions.contains(m) && !clampedLater) {
                needed.add(m);
            }
        }
        YearMonth next = month(Instant.now()).plusMonths(1);
        boolean ahead = !partitions.contains(next) && System.nanoTime() - nextAheadAttempt >= 0;
        if (needed.isEmpty() && !ahead && postgres != null) {
            return;
        }
        try (Connection c = ds.getConnection()) {
            if (postgres == null) {
                postgres = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgres");
                if (!postgres) {
                    return;
                }
            }
            c.setAutoCommit(false);
            for (YearMonth m : needed) {
                createPartition(c, m, config.commitTimeout().toMillis());
            }
            if (ahead) {
                try {
                    createPartition(c, next, 200);
                } catch (SQLException e) {
                    nextAheadAttempt = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                    LOG.debugf("next month's audit partition not created yet (%s); retrying in a minute", e.getMessage());
                }
            }
        }
    }

    private void createPartition(Connection c, YearMonth m, long lockWaitMillis) throws SQLException {
        try (var st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = " + lockWaitMillis);
            try (PreparedStatement ps = c.prepareStatement("SELECT quaestor_audit_ensure_partition(?)")) {
                ps.setObject(1, m.atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
                ps.execute();
            }
            c.commit();
            partitions.add(m);
        } catch (SQLException e) {
            safeRollback(c);
            throw e;
        }
    }

    private void readHead(Connection c) throws SQLException {
        headSeq = 0;
        headHash = ChainVerifier.GENESIS;
        headTime = null;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, entry_hash, event_time FROM audit_entry WHERE chain_id = ? ORDER BY seq DESC LIMIT 1")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    headSeq = rs.getLong(1);
                    headHash = rs.getString(2);
                    headTime = rs.getObject(3, OffsetDateTime.class).toInstant();
                }
            }
        }
        if (headSeq == 0) {
            // Everything this chain wrote may have been archived: continue after the marker.
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT seq, entry_hash FROM audit_archive WHERE chain_id = ? ORDER BY seq DESC LIMIT 1")) {
                ps.setString(1, chain);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        headSeq = rs.getLong(1);
                        headHash = rs.getString(2);
                    }
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT COALESCE(MAX(seq), 0) FROM audit_checkpoint WHERE chain_id = ?")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                checkpointSeq = rs.getLong(1);
            }
        }
        registerKey(c);
        committedSeq = headSeq;
        headKnown = true;
    }

    private void registerKey(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM audit_key WHERE key_id = ?")) {
            ps.setString(1, key.keyId());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO audit_key (key_id, algorithm, public_key, created_at) VALUES (?, 'Ed25519', ?, ?)")) {
            ps.setString(1, key.keyId());
            ps.setString(2, key.publicKeyBase64());
            ps.setObject(3, OffsetDateTime.now(ZoneOffset.UTC));
            ps.executeUpdate();
        }
    }

    private ChainedBatch.Checkpoint checkpoint(long seq, String hash) {
        String time = AuditRecords.truncate(Instant.now()).toString();
        byte[] sig = key.sign(ChainVerifier.checkpointPayload(chain, seq, hash, time));
        return new ChainedBatch.Checkpoint(seq, hash, time, key.keyId(), Base64.getEncoder().encodeToString(sig));
    }

    private static void safeRollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; closing it is all that is left
        }
    }
}
