-- The logs written so far carry on from their last record. Found one index probe at a time, not by a scan of every
-- record: the next log id after the last one found, then that log's greatest seq, each from the partitions' unique
-- (chain_id, seq) indexes, so this takes moments however long the logs are.
WITH RECURSIVE logs AS (
    SELECT MIN(chain_id) AS chain_id FROM audit_entry
    UNION ALL
    SELECT (SELECT MIN(e.chain_id) FROM audit_entry e WHERE e.chain_id > logs.chain_id) FROM logs WHERE logs.chain_id IS NOT NULL
)
INSERT INTO audit_head (chain_id, size)
    SELECT logs.chain_id, (SELECT MAX(e.seq) FROM audit_entry e WHERE e.chain_id = logs.chain_id)
    FROM logs WHERE logs.chain_id IS NOT NULL;
-- A log whose records are all archived carries on after its last archive marker.
INSERT INTO audit_head (chain_id, size)
    SELECT chain_id, MAX(seq) FROM audit_archive GROUP BY chain_id
    ON CONFLICT (chain_id) DO NOTHING;

-- The application reads the heads, adds a new log's and moves them; it never removes one.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON audit_head FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON audit_head TO %I', '${appRole}');
    END IF;
END
$$;
CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_head_no_truncate BEFORE TRUNCATE ON audit_head
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
