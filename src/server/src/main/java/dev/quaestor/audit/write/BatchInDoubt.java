package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditEvent;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A batch whose store failed in a way that may have committed it (its reply lost with the connection) while the
 * database could not be asked whether it did, and the records owed for it. Its waiters were told it was not stored;
 * once the writer reads its head again, {@link #settle} finds out. Found stored, the corrections its requests gave
 * (their {@code OUTCOME} {@code aborted}) are owed to the log and go in the next batch, before its records, until one
 * is stored. Touched only by the writer thread.
 */
final class BatchInDoubt {

    private static final Logger LOG = Logger.getLogger(BatchInDoubt.class);

    private SealedBatch batch;
    private List<Supplier<AuditEvent>> corrections = List.of();
    private int records;
    /** How many of the records owed, the first, went into the batch in doubt. */
    private int owedInBatch;
    private final List<AuditEvent> owed = new ArrayList<>();

    /**
     * {@code batch} failed and the database could not say whether it is stored; its {@code records} waiters failed.
     * The records owed so far went into it.
     */
    void doubt(SealedBatch batch, List<Supplier<AuditEvent>> corrections, int records) {
        this.batch = batch;
        this.corrections = corrections;
        this.records = records;
        this.owedInBatch = owed.size();
    }

    /**
     * With the head just read again on {@code c}: whether the batch in doubt is stored. If it is, the records owed
     * before were in it, so stored with it, and its corrections are owed now; its records were not refused after all.
     * If that cannot be told yet, throws, and the writer fails this batch and reads its head again with the next.
     */
    void settle(Connection c, WriterLife life, String origin) throws SQLException {
        if (batch == null) {
            return;
        }
        Boolean stored = FailedStore.stored(c, batch);
        if (stored == null) {
            // Writing on from a head that may yet gain this batch would put two records at one position.
            throw new SQLException("log " + origin + ": whether a batch of " + records + " record(s) reported as not"
                    + " stored was stored after all cannot be told yet (the server process that ran its store is still"
                    + " running it); nothing more is written until it can");
        }
        if (stored) {
            owed.subList(0, owedInBatch).clear(); // stored with it: owed no longer
            corrections.forEach(correction -> owed.add(correction.get()));
            life.storedAfterAll(records);
            LOG.warnf("log %s: a batch of %d record(s) reported as not stored was stored (its commit's reply was lost);"
                    + " %d correction(s) follow", origin, records, owed.size());
        }
        batch = null;
        corrections = List.of();
    }

    /** The records owed to the log, to go in the next batch. */
    List<AuditEvent> owed() {
        return owed;
    }

    /**
     * A record owed to the log apart from any batch in doubt: the correction of a call refused while its record was
     * being stored ({@link GroupCommitWriter#submitCall}). Goes in the next batch with the rest.
     */
    void owe(AuditEvent correction) {
        owed.add(correction);
    }

    /** A batch holding what was owed is stored. */
    void paid() {
        owed.clear();
    }
}
