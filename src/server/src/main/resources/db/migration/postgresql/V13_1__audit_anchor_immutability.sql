-- Anchors are append-only, like every audit table; the application may only INSERT and SELECT them.
CREATE TRIGGER audit_anchor_immutable BEFORE UPDATE OR DELETE ON audit_anchor
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_anchor_no_truncate BEFORE TRUNCATE ON audit_anchor
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON audit_anchor FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON audit_anchor TO %I', '${appRole}');
    END IF;
END
$$;

-- The archive file carries each checkpoint's time-stamp as the export does: the export function as it stands is
-- kept under another name, and its checkpoint lines get their token's line (records pass through untouched).
ALTER FUNCTION quaestor_audit_archive_export(TIMESTAMP WITH TIME ZONE) RENAME TO quaestor_audit_archive_export_lines;

CREATE FUNCTION quaestor_audit_anchored_line(line text) RETURNS text
    LANGUAGE sql STABLE AS $$
    SELECT COALESCE((SELECT json_build_object('type', 'checkpoint', 'log', a.chain_id, 'size', a.seq,
            'note', (line::json ->> 'note') || E'\u2014 rfc3161-timestamp ' || a.signature || E'\n')::text
        FROM audit_anchor a
        WHERE (line::json ->> 'note') IS NOT NULL AND a.chain_id = line::json ->> 'log'
            AND a.seq = (line::json ->> 'size')::bigint), line)
$$;

CREATE FUNCTION quaestor_audit_archive_export(before_time TIMESTAMP WITH TIME ZONE) RETURNS SETOF text
    LANGUAGE plpgsql STABLE AS $$
DECLARE
    l text;
BEGIN
    -- Line by line, in the order the export function writes them (no sort of the whole archive).
    FOR l IN SELECT * FROM quaestor_audit_archive_export_lines(before_time) LOOP
        RETURN NEXT CASE WHEN l LIKE '{"type" : "checkpoint"%' THEN quaestor_audit_anchored_line(l) ELSE l END;
    END LOOP;
END
$$;
REVOKE ALL ON FUNCTION quaestor_audit_archive_export(TIMESTAMP WITH TIME ZONE) FROM PUBLIC;
REVOKE ALL ON FUNCTION quaestor_audit_archive_export_lines(TIMESTAMP WITH TIME ZONE) FROM PUBLIC;
REVOKE ALL ON FUNCTION quaestor_audit_anchored_line(text) FROM PUBLIC;
