-- The application role keeps each member of staff's chosen time zone: added and changed, never removed.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON console_time_zone FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON console_time_zone TO %I', '${appRole}');
    END IF;
END
$$;
