-- H2 (the embedded dev default) keeps audit_entry a plain table: it has no declarative partitioning,
-- so there is no archiving procedure for it (README "Retention"). The archive-marker table exists so
-- that the same code reads both databases; nothing writes it here.
CREATE TABLE audit_archive (
    chain_id    VARCHAR(128) NOT NULL,
    seq         BIGINT       NOT NULL,
    entry_hash  VARCHAR(64)  NOT NULL,
    before_time TIMESTAMP WITH TIME ZONE NOT NULL,
    records     BIGINT       NOT NULL,
    archived_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT CURRENT_TIMESTAMP,
    archived_by VARCHAR(128) NOT NULL DEFAULT CURRENT_USER,
    PRIMARY KEY (chain_id, seq)
);
CREATE TRIGGER audit_archive_immutable BEFORE UPDATE, DELETE ON audit_archive FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
