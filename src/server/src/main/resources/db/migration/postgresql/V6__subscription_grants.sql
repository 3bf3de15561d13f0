-- The application role may add, look up and remove subscriptions (unsubscribe, end of session).
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON mcp_subscription FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, DELETE ON mcp_subscription TO %I', '${appRole}');
    END IF;
END
$$;
