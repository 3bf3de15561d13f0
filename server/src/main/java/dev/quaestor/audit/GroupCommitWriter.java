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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one writer of this replica's audit chain. Requests hand it records and wait; a single thread
 * takes whatever has queued up, chains it (seq, prev, hash), inserts it in a transaction of its own
 * with a signed checkpoint when one is due, and, if more records are already waiting, hands the
 * transaction to a committer thread. While that commit is in flight the next batch is already being
 * chained and inserted on a second connection, but it is committed only after the previous commit
 * has succeeded, so the chain's commit order is its seq order. When nothing is waiting, the writer
 * commits the batch itself (no overlap to gain, one thread wake-up saved). Each waiter is released
 * when its own batch commits.
 *
 * <p>Failure is explicit: a full queue refuses at once, a batch that cannot commit fails every
 * waiter in it, the batch inserted behind it is rolled back and fails too, and the chain head is
 * then re-read from the database so that the next batch continues exactly where committed history
 * ends. Nothing is buffered beyond the queue bound.
 *
 * <p>Record times never go backwards within a chain (a record stamped earlier than its predecessor
 * takes its predecessor's time), and the last record of every month gets a signed checkpoint, so a
 * month's partition always ends at a signed head and can be archived on its own (README "Retention").
 */
final class GroupCommitWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);

    private record Pending(AuditEvent event, CompletableFuture<Void> done) {
    }

    /** A batch inserted but not yet committed, and the chain head it leads to. */
    private record InFlight(Connection connection, List<Pending> batch, long seq, long started,
            CompletableFuture<Boolean> committed) {
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
    private final ExecutorService committer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "quaestor-audit-commit");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean running = true;
    private Thread thread;

    // The chain head including the batch in flight; touched only by the writer thread.
    private long headSeq;
    private String headHash = ChainVerifier.GENESIS;
    private Instant headTime;
    private long checkpointSeq;
    private long checkpointNanos = System.nanoTime();
    private boolean headKnown;
    private Boolean postgres; // null until known
    private long nextAheadAttempt = System.nanoTime();
    private final Set<YearMonth> partitions = new HashSet<>();
    private InFlight inFlight;

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
        this.commitTimer = Timer.builder("quaestor.audit.commit").description("Audit batch latency, from insert to commit")
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
        var p = new Pending(event, new CompletableFuture<>());
        if (!running || !queue.offer(p)) {
            failures.increment();
            throw new AuditUnavailableException(new IllegalStateException(running ? "audit queue full" : "audit writer stopped"));
        }
        try {
            p.done().get(config.commitTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditUnavailableException(e);
        } catch (Exception e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * Queues a record without waiting for it, for events on threads that must not block (a refused
     * authentication on the event loop). Nothing is served on such a request whether or not the
     * record makes it; a full queue drops it and counts the failure.
     */
    boolean offer(AuditEvent event) {
        boolean queued = running && queue.offer(new Pending(event, new CompletableFuture<>()));
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
        committer.shutdown();
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
                    settle();
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
        settle();
        if (headKnown && headSeq > checkpointSeq) {
            write(List.of()); // final checkpoint on shutdown
            settle();
        }
    }

    private boolean checkpointDue() {
        long pending = headSeq - checkpointSeq;
        return headKnown && pending > 0 && (pending >= config.checkpointEvery()
                || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos());
    }

    /** Inserts a batch, then commits it once the batch before it has committed. */
    private void write(List<Pending> batch) {
        long start = System.nanoTime();
        Connection c = null;
        try {
            if (!headKnown) {
                settle(); // the head is re-read from committed history only
            }
            ensurePartitions(batch);
            c = ds.getConnection();
            c.setAutoCommit(false);
            long seq = insert(c, batch);
            if (!settle()) {
                throw new SQLException("the audit batch before this one did not commit");
            }
            var next = new InFlight(c, batch, seq, start, new CompletableFuture<>());
            if (queue.isEmpty()) {
                // Nothing waits to be inserted behind this batch, so handing its commit to the committer
                // would buy no overlap and cost a thread wake-up per batch: commit it here.
                commit(next);
                if (!next.committed().join()) {
                    forgetHead();
                }
                return;
            }
            inFlight = next;
            committer.execute(() -> commit(next));
        } catch (Exception e) {
            if (c != null) {
                safeRollback(c);
                safeClose(c);
            }
            forgetHead();
            failWaiters(batch, e);
        }
    }

    /** Waits for the batch in flight, if any; false if it failed (the head is then re-read before the next batch). */
    private boolean settle() {
        InFlight f = inFlight;
        if (f == null) {
            return true;
        }
        inFlight = null;
        boolean ok = f.committed().join();
        if (!ok) {
            forgetHead();
        }
        return ok;
    }

    /** The commit may or may not have happened: the next batch starts from the head as stored. */
    private void forgetHead() {
        headKnown = false;
        partitions.clear();
    }

    /** On the committer thread: commits, then releases the waiters. */
    private void commit(InFlight f) {
        try {
            f.connection().commit();
            f.connection().close();
        } catch (Exception e) {
            safeRollback(f.connection());
            safeClose(f.connection());
            failWaiters(f.batch(), e);
            f.committed().complete(false);
            return;
        }
        committedSeq = f.seq();
        f.batch().forEach(p -> p.done().complete(null));
        commitTimer.record(System.nanoTime() - f.started(), TimeUnit.NANOSECONDS);
        batchSize.record(f.batch().size());
        f.committed().complete(true);
    }

    private void failWaiters(List<Pending> batch, Exception e) {
        failures.increment(batch.size());
        LOG.errorf("audit batch of %d record(s) not committed: %s", batch.size(), e.toString());
        batch.forEach(p -> p.done().completeExceptionally(e));
    }

    /** Chains and inserts the batch (and any checkpoints due) on c, uncommitted; returns the new head seq. */
    private long insert(Connection c, List<Pending> batch) throws SQLException {
        if (!headKnown) {
            readHead(c);
        }
        long seq = headSeq;
        String prev = headHash;
        Instant prevTime = headTime;
        long signed = checkpointSeq;
        if (!batch.isEmpty()) {
            boolean copy = postgres == Boolean.TRUE;
            var rows = copy ? new StringBuilder(batch.size() * 512) : null;
            try (PreparedStatement ps = copy ? null : c.prepareStatement(AuditRecords.INSERT)) {
                for (Pending p : batch) {
                    Instant time = AuditRecords.truncate(p.event().time());
                    if (prevTime != null && time.isBefore(prevTime)) {
                        time = prevTime;
                    }
                    if (prevTime != null && !month(time).equals(month(prevTime)) && seq > signed) {
                        writeCheckpoint(c, seq, prev); // a month ends at a signed head
                        signed = seq;
                    }
                    var fields = AuditRecords.fields(p.event(), chain, ++seq, prev, time, hasher);
                    String hash = ChainVerifier.hash(sha256, fields);
                    if (copy) {
                        AuditRecords.copyRow(rows, fields, hash);
                    } else {
                        AuditRecords.bind(ps, fields, time, hash);
                        ps.addBatch();
                    }
                    prev = hash;
                    prevTime = time;
                }
                if (copy) {
                    c.unwrap(org.postgresql.PGConnection.class).getCopyAPI().copyIn(AuditRecords.COPY,
                            new java.io.ByteArrayInputStream(rows.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                } else {
                    ps.executeBatch();
                }
            } catch (java.io.IOException e) {
                throw new SQLException("audit batch could not be sent", e);
            }
        }
        if (seq > signed && (seq - signed >= config.checkpointEvery()
                || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos() || !running)) {
            writeCheckpoint(c, seq, prev);
            signed = seq;
        }
        if (signed != checkpointSeq) {
            checkpointNanos = System.nanoTime();
        }
        headSeq = seq;
        headHash = prev;
        headTime = prevTime;
        checkpointSeq = signed;
        return seq;
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

    private void writeCheckpoint(Connection c, long seq, String hash) throws SQLException {
        String time = AuditRecords.truncate(Instant.now()).toString();
        byte[] sig = key.sign(ChainVerifier.checkpointPayload(chain, seq, hash, time));
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO audit_checkpoint (chain_id, seq, head_hash, signed_at, key_id, signature) VALUES (?,?,?,?,?,?)")) {
            ps.setString(1, chain);
            ps.setLong(2, seq);
            ps.setString(3, hash);
            ps.setString(4, time);
            ps.setString(5, key.keyId());
            ps.setString(6, Base64.getEncoder().encodeToString(sig));
            ps.executeUpdate();
        }
    }

    private static void safeRollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; closing it is all that is left
        }
    }

    private static void safeClose(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing more to do
        }
    }
}
