-- Audit format 2 (docs/audit-format.md): the new record fields, a Merkle tree per log, and
-- checkpoints as C2SP signed notes.
ALTER TABLE audit_entry ADD COLUMN correlation VARCHAR(256);
ALTER TABLE audit_entry ADD COLUMN client_info VARCHAR(512);
ALTER TABLE audit_entry ADD COLUMN auth_context VARCHAR(512);
ALTER TABLE audit_entry ADD COLUMN protocol VARCHAR(64);
ALTER TABLE audit_entry ADD COLUMN cache_scope VARCHAR(16);
ALTER TABLE audit_entry ADD COLUMN event_count BIGINT;
ALTER TABLE audit_entry ADD COLUMN first_time TIMESTAMP WITH TIME ZONE;
ALTER TABLE audit_entry ADD COLUMN last_time TIMESTAMP WITH TIME ZONE;
ALTER TABLE audit_entry ALTER COLUMN kind SET DATA TYPE VARCHAR(32);

-- The hash of each complete subtree of 16 leaves or more, and at each month's last record the smaller
-- complete subtrees that end there: what proofs need, whatever is archived.
CREATE TABLE audit_tree_node (
    chain_id VARCHAR(128) NOT NULL,
    level    SMALLINT     NOT NULL,
    idx      BIGINT       NOT NULL,
    hash     VARCHAR(64)  NOT NULL,
    PRIMARY KEY (chain_id, level, idx)
);

-- A format-2 checkpoint is the whole signed note; its size, root (hex), key id and signature are
-- also kept in the existing columns for lookups.
ALTER TABLE audit_checkpoint ADD COLUMN note VARCHAR(4096);
-- The C2SP verifier key of a signing key the writers used (information only: trust comes from configuration).
ALTER TABLE audit_key ADD COLUMN vkey VARCHAR(512);
