-- The application role deletes the rows of ended and expired sessions (the sweep keeps the table bounded).
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('GRANT DELETE ON mcp_session TO %I', '${appRole}');
    END IF;
END
$$;
