-- The application opens holds, widens them, asks for and records their release (UPDATE); it never deletes one.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON legal_hold FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON legal_hold TO %I', '${appRole}');
    END IF;
END
$$;
CREATE TRIGGER legal_hold_no_delete BEFORE DELETE ON legal_hold
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER legal_hold_no_truncate BEFORE TRUNCATE ON legal_hold
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
