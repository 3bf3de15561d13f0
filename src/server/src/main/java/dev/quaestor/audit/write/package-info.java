/**
 * The write side: the group-commit writer (GroupCommitWriter: the commit loop) and its parts: a batch sealed into one
 * transaction (SealedBatch), the log's head (LogHead: the tree's edge and checkpoints), each subject's share of
 * the queue (QueueShares), a queued record (PendingCommit, queued through RecordQueue), the monthly partitions
 * (AuditPartitions), the key's row (KeyRegistration), the writer's own records (WriterLife), its lease on the log
 * (WriterLease: one live process writes it), the compare-and-set of the log's size each store makes (HeadRow), what
 * a failed store turns out to have done (FailedStore, BatchInDoubt), the signing key (SigningKey) and the keys pinned
 * beside it (PinnedKeys).
 */
package dev.quaestor.audit.write;
