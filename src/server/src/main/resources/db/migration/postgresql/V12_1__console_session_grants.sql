-- The application role opens, uses and ends console sessions, and deletes the rows of those past their expiry.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON console_session FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON console_session TO %I', '${appRole}');
    END IF;
END
$$;
