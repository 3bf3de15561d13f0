-- The application keeps cases: it adds cases, members, searches, requests and notes, and removes members. Notes are
-- only ever added: no role may change or delete one.
CREATE TRIGGER audit_case_note_immutable BEFORE UPDATE OR DELETE ON audit_case_note
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_case_note_no_truncate BEFORE TRUNCATE ON audit_case_note
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON audit_case, audit_case_member, audit_case_search, audit_case_request, audit_case_note '
            || 'FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON audit_case, audit_case_search, audit_case_request, audit_case_note TO %I',
            '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, DELETE ON audit_case_member TO %I', '${appRole}');
    END IF;
END
$$;
