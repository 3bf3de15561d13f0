package dev.quaestor.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The one writer of this replica's audit chain. Requests hand it records and wait; a single thread
 * takes whatever has queued up, chains it (seq, prev, hash), and commits it in one transaction,
 * with a signed checkpoint when one is due. Each waiter is released when its own batch commits.
 *
 * <p>Failure is explicit: a full queue refuses at once, a batch that cannot commit fails every
 * waiter in it, and the chain head is then re-read from the database so that the next batch
 * continues exactly where committed history ends. Nothing is buffered beyond the queue bound.
 */
final class GroupCommitWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);

    private record Pending(AuditEvent event, CompletableFuture<Void> done) {
    }

    private final javax.sql.DataSource ds;
    private final AuditConfig config;
    private final SigningKey key;
    private final FieldHasher hasher;
    private final String chain;
    private final BlockingQueue<Pending> queue;
    private final MessageDigest sha256 = ChainVerifier.newDigest();
    private final Timer commitTimer;
    private final Counter failures;
    private final MeterRegistry metrics;
    private volatile boolean running = true;
    private Thread thread;

    // Chain head as committed; touched only by the writer thread (and at start-up).
    private long headSeq;
    private String headHash = ChainVerifier.GENESIS;
    private long checkpointSeq;
    private long checkpointNanos = System.nanoTime();
    private boolean headKnown;

    GroupCommitWriter(javax.sql.DataSource ds, AuditConfig config, SigningKey key, FieldHasher hasher, String chain,
            MeterRegistry metrics) {
        this.ds = ds;
        this.config = config;
        this.key = key;
        this.hasher = hasher;
        this.chain = chain;
        this.metrics = metrics;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.commitTimer = Timer.builder("quaestor.audit.commit").description("Audit batch commit latency")
                .publishPercentiles(0.5, 0.99).register(metrics);
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
    }

    /** The committed head seq, as this writer knows it: for the online verifier's truncation check. */
    synchronized long headSeq() {
        return headSeq;
    }

    private void run() {
        var batch = new ArrayList<Pending>(config.maxBatch());
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (checkpointDue()) {
                        commit(List.of());
                    }
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, config.maxBatch() - 1);
                commit(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.error("audit writer error", e);
            } finally {
                batch.clear();
            }
        }
        if (headKnown && headSeq > checkpointSeq) {
            commit(List.of()); // final checkpoint on shutdown
        }
    }

    private boolean checkpointDue() {
        long pending = headSeq - checkpointSeq;
        return headKnown && pending > 0 && (pending >= config.checkpointEvery()
                || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos());
    }

    private void commit(List<Pending> batch) {
        long start = System.nanoTime();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (!headKnown) {
                    readHead(c);
                }
                long seq = headSeq;
                String prev = headHash;
                if (!batch.isEmpty()) {
                    try (PreparedStatement ps = c.prepareStatement(AuditRecords.INSERT)) {
                        for (Pending p : batch) {
                            var time = AuditRecords.truncate(p.event().time());
                            var fields = AuditRecords.fields(p.event(), chain, ++seq, prev, time, hasher);
                            String hash = ChainVerifier.hash(sha256, fields);
                            AuditRecords.bind(ps, fields, time, hash);
                            ps.addBatch();
                            prev = hash;
                        }
                        ps.executeBatch();
                    }
                }
                boolean checkpoint = seq > checkpointSeq && (seq - checkpointSeq >= config.checkpointEvery()
                        || System.nanoTime() - checkpointNanos >= config.checkpointInterval().toNanos() || !running);
                if (checkpoint) {
                    writeCheckpoint(c, seq, prev);
                }
                c.commit();
                synchronized (this) {
                    headSeq = seq;
                    headHash = prev;
                }
                if (checkpoint) {
                    checkpointSeq = seq;
                    checkpointNanos = System.nanoTime();
                }
            } catch (SQLException | RuntimeException e) {
                safeRollback(c);
                throw e;
            }
            batch.forEach(p -> p.done().complete(null));
            commitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            metrics.summary("quaestor.audit.batch.size").record(batch.size());
        } catch (Exception e) {
            failures.increment(batch.size());
            LOG.errorf("audit batch of %d record(s) not committed: %s", batch.size(), e.toString());
            // Re-read the head before the next batch: the commit may or may not have happened.
            headKnown = false;
            batch.forEach(p -> p.done().completeExceptionally(e));
        }
    }

    private void readHead(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT seq, entry_hash FROM audit_entry WHERE chain_id = ? ORDER BY seq DESC LIMIT 1")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                headSeq = rs.next() ? rs.getLong(1) : 0;
                headHash = headSeq == 0 ? ChainVerifier.GENESIS : rs.getString(2);
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
        String time = AuditRecords.truncate(java.time.Instant.now()).toString();
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
}
