-- Audit tables are append-only. Row triggers reject UPDATE and DELETE; a statement trigger rejects
-- TRUNCATE, which fires no row triggers. Even the owner must drop or disable these to tamper, and
-- the hash chain and signed checkpoints reveal what was changed.
CREATE OR REPLACE FUNCTION quaestor_audit_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit records are immutable: % on % is not allowed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_entry_immutable BEFORE UPDATE OR DELETE ON audit_entry
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_entry_no_truncate BEFORE TRUNCATE ON audit_entry
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_checkpoint_immutable BEFORE UPDATE OR DELETE ON audit_checkpoint
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_checkpoint_no_truncate BEFORE TRUNCATE ON audit_checkpoint
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_key_immutable BEFORE UPDATE OR DELETE ON audit_key
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_key_no_truncate BEFORE TRUNCATE ON audit_key
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();

-- The application role (placeholder appRole, set with quaestor.db.app-role) may only INSERT and
-- SELECT audit tables; sessions it may also UPDATE (to end them). Migrations run as the owner.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${appRole}') THEN
            RAISE EXCEPTION 'application role % does not exist; create it first (see README)', '${appRole}';
        END IF;
        EXECUTE format('REVOKE ALL ON audit_entry, audit_checkpoint, audit_key, mcp_session FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON audit_entry, audit_checkpoint, audit_key TO %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON mcp_session TO %I', '${appRole}');
        EXECUTE format('GRANT USAGE ON SEQUENCE audit_entry_id_seq, audit_checkpoint_id_seq TO %I', '${appRole}');
    END IF;
END
$$;
