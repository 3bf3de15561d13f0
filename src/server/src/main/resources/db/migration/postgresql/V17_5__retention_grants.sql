-- Only the owner (the retention job) writes held records, locks and runs; nobody changes or removes them. The
-- application reads them, and notes which runs it has put on the audit log.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['audit_held_record', 'retention_lock', 'retention_run'] LOOP
        EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable()',
            t || '_immutable', t);
        EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable()',
            t || '_no_truncate', t);
    END LOOP;
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON audit_held_record, retention_lock, retention_run, retention_run_record FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT ON audit_held_record, retention_lock, retention_run TO %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON retention_run_record TO %I', '${appRole}');
    END IF;
END
$$;
