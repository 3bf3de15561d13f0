package dev.quaestor.audit.record;

import dev.quaestor.evidence.VerifierKey;
import java.util.Set;

/**
 * This replica's log as the rooms that read and anchor it see it: its id, the origin line of any log's checkpoints,
 * how its chosen fields are stored, the keys its online check trusts and how far it has committed. The audit log's
 * face ({@code dev.quaestor.audit.AuditLog}) is the one implementation; the rooms name this instead of the face, so
 * that no arrow points from a room back up to it.
 */
public interface LiveLog {

    /** This replica's log id. */
    String logId();

    /** The origin line of any log's checkpoints. */
    String originOf(String logId);

    /** How chosen fields are stored (see {@link FieldHasher}). */
    FieldHasher hasher();

    /** The keys the online check trusts (current and configured), never keys found in the database. */
    Set<VerifierKey> trustedKeys();

    /** The sequence number of the last record this replica committed. */
    long committedHead();

    /** Signs a checkpoint over every record committed so far, now, and waits for it; false if it could not be stored. */
    boolean signCheckpointNow();
}
