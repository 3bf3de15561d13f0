package dev.quaestor.audit;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.annotation.Priority;
import java.net.InetAddress;

/**
 * Appends audit records: each {@link #append} returns only once its record is committed, chained
 * and (within the checkpoint interval) signed; otherwise it throws {@link AuditUnavailableException}
 * so the caller fails closed. {@link #submit} and {@link #submitAfter} queue without waiting, for a
 * request that does other work while its first record commits and waits once, for its last.
 */
@Startup
@ApplicationScoped
public class AuditLog {

    private final GroupCommitWriter[] writers;
    private final SigningKey key;
    private final FieldHasher hasher;

    AuditLog(AgroalDataSource ds, AuditConfig config, MeterRegistry metrics) {
        if (config.writers() < 1 || config.writers() > 16) {
            throw new IllegalArgumentException("quaestor.audit.writers must be 1-16, not " + config.writers());
        }
        this.key = SigningKey.load(config);
        this.hasher = new FieldHasher(config.hashedFields().orElse(java.util.List.of()), config.hmacKey().orElse(null));
        String base = config.chainId().orElseGet(AuditLog::hostName);
        this.writers = new GroupCommitWriter[config.writers()];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new GroupCommitWriter(ds, config, key, hasher, i == 0 ? base : base + "#" + i, metrics, i);
            writers[i].start();
        }
    }

    /**
     * The writer with the shortest backlog, the first on a tie. With one writer, that one. A writer
     * held up by a slow statement keeps its backlog, so new requests go past it to another.
     */
    private GroupCommitWriter leastBusy() {
        GroupCommitWriter best = writers[0];
        if (writers.length > 1) {
            int least = best.backlog();
            for (int i = 1; i < writers.length && least > 0; i++) {
                int b = writers[i].backlog();
                if (b < least) {
                    best = writers[i];
                    least = b;
                }
            }
        }
        return best;
    }

    /** How chosen fields are stored (see {@link FieldHasher}). */
    public FieldHasher hasher() {
        return hasher;
    }

    public void append(AuditEvent e) {
        leastBusy().append(e);
    }

    /**
     * Queues a record without waiting; {@link PendingCommit#await} waits for it. Throws
     * {@link AuditUnavailableException} at once if the queue is full.
     */
    public PendingCommit submit(AuditEvent e) {
        return leastBusy().submit(e, null);
    }

    /**
     * As {@link #submit}, but the record is stored only if {@code first} was (a request's outcome after
     * its decision), and on the same chain, right after it or later.
     */
    public PendingCommit submitAfter(PendingCommit first, AuditEvent e) {
        return first.writer.submit(e, first);
    }

    /** Queues a record without waiting (see {@link GroupCommitWriter#offer}); false if it was dropped. */
    public boolean appendLater(AuditEvent e) {
        return leastBusy().offer(e);
    }

    /** This replica's chain ids, one per writer. */
    public java.util.List<String> chains() {
        return java.util.Arrays.stream(writers).map(GroupCommitWriter::chain).toList();
    }

    /** The checkpoint-signing public key (X.509, base64) and its id, for publication. */
    public String publicKeyBase64() {
        return key.publicKeyBase64();
    }

    public String keyId() {
        return key.keyId();
    }

    /** The checkpoint-signing key, for another writer of this replica (the archive test writes a chain of its own). */
    SigningKey signingKey() {
        return key;
    }

    /** Each of this replica's chains with the head seq its writer committed, for the truncation check. */
    java.util.Map<String, Long> committedHeads() {
        var heads = new java.util.LinkedHashMap<String, Long>();
        for (GroupCommitWriter w : writers) {
            heads.put(w.chain(), w.headSeq());
        }
        return heads;
    }

    /** Shutdown commits what is queued and signs the final heads (runs before the datasource closes). */
    void shutdown(@Observes @Priority(1) ShutdownEvent ev) {
        for (GroupCommitWriter w : writers) {
            w.stopTaking();
        }
        for (GroupCommitWriter w : writers) {
            w.stop();
        }
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
