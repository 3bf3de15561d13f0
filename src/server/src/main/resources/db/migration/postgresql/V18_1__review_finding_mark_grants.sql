-- The application role marks findings: it may set the mark's columns and nothing else of a finding.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('GRANT UPDATE (mark, marked_by, marked_at, mark_note, mark_request) ON review_finding TO %I', '${appRole}');
    END IF;
END
$$;
