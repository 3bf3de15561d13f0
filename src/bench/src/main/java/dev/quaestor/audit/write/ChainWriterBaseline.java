package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.RecordText;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.v1.V1Record;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The comparison point for the Merkle log: the hash chain of format 1 (each record's hash covers the
 * previous one's), written the same way (one writer thread, group commit, one PostgreSQL statement per
 * batch, a signed head every 1,000 records) but with no tree: no leaf prefix, no nodes. Benchmark only. It is
 * the one benchmark class still in the server's package: it writes through the server's batch
 * ({@link SealedBatch}), which is the writer's own and not public.
 */
public final class ChainWriterBaseline {

    private record Pending(AuditEvent event, CompletableFuture<Void> done) {
    }

    private final DataSource ds;
    private final SigningKey key;
    private final String chain;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(10_000);
    private volatile boolean running = true;
    private final Thread thread;
    private long seq;
    private String prev = "0".repeat(64);
    private long signed;

    /** A writer of chain {@code chain}, signing with the key {@code config} names (or generates). */
    public ChainWriterBaseline(DataSource ds, AuditConfig config, String chain) {
        this.ds = ds;
        this.key = SigningKey.load(config);
        this.chain = chain;
        this.thread = new Thread(this::run, "chain-baseline-writer");
        thread.setDaemon(true);
        thread.start();
    }

    public void append(AuditEvent e) throws Exception {
        var p = new Pending(e, new CompletableFuture<>());
        if (!queue.offer(p)) {
            throw new IllegalStateException("queue full");
        }
        p.done().get(5, TimeUnit.SECONDS);
    }

    public void stop() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                var batch = new ArrayList<Pending>();
                batch.add(first);
                queue.drainTo(batch, 499);
                write(batch);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void write(List<Pending> batch) {
        var sealed = new SealedBatch(chain, seq, batch.size());
        long s = seq;
        String p = prev;
        for (Pending pending : batch) {
            RecordText text = AuditRecords.text(pending.event(), chain, ++s, AuditRecords.truncate(pending.event().time()),
                    FieldHasher.none());
            var values = new String[AuditRecords.COLUMNS.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = text.column(i);
            }
            values[RecordField.V.ordinal()] = V1Record.VERSION;
            values[AuditRecords.PREV] = p;
            var v1 = new RecordText(values);
            String hash = V1Record.hash(v1.canonical().fields());
            sealed.rows.add(new SealedBatch.Row(v1, hash));
            p = hash;
        }
        if (s - signed >= 1000) {
            sealed.checkpoints.add(key.checkpoint("bench/" + chain, s, Hex.hash(p), Instant.now()));
        }
        // The store moves the log's head from seq to s; a format-1 chain keeps no tree, so only the size counts.
        sealed.sealedTree = dev.quaestor.evidence.Frontier.of(s, (level, index) -> new byte[32]);
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(true);
            if (seq == 0) {
                HeadRow.catchUp(c, chain, 0);
            }
            sealed.storeInPostgres(c);
        } catch (Exception e) {
            batch.forEach(x -> x.done().completeExceptionally(e));
            return;
        }
        seq = s;
        prev = p;
        if (!sealed.checkpoints.isEmpty()) {
            signed = s;
        }
        batch.forEach(x -> x.done().complete(null));
    }
}
