-- Each log's head: its stored size, the seq of its last record. Every batch the writer stores moves it from the size
-- the writer read to the new size in the same transaction as the batch's records, and only if it still holds the size
-- the writer read (compare-and-set); otherwise nothing of the batch is stored. audit_entry's (chain_id, seq) is unique
-- only within a month's partition, so this row is what keeps two writers of one log from both storing a record at one
-- seq across a month boundary. Not partitioned, and never shrinks: archiving a month leaves a log's last seq as it is.
CREATE TABLE audit_head (
    chain_id VARCHAR(128) PRIMARY KEY,
    size     BIGINT       NOT NULL
);
