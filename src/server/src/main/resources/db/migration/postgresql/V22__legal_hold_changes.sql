-- A legal hold changes only as the application changes it, each change on the audit log first: its time range is
-- widened (an earlier from, a later to or none), its release is asked for (who, when, why), and it is released by
-- someone else. Nothing else of a hold ever changes.
--
-- The application role may UPDATE only the columns those changes write (column privileges); and a row trigger refuses,
-- to every role the owner included, any UPDATE that changes what the hold is (its case, scope, target, reason, creator,
-- creation time), narrows its range, changes a release column once it is set, releases it without an ask made first
-- (that someone else releases it is the constraint legal_hold_four_eyes), or changes a released hold at all. A new
-- hold is put unreleased. Only a role that drops or disables the trigger can do more; the case's history on the audit
-- log holds every change made through the application, so a change it does not hold was made around it.
CREATE OR REPLACE FUNCTION quaestor_legal_hold_change() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.release_asked_by IS NOT NULL OR NEW.release_asked_at IS NOT NULL OR NEW.release_reason IS NOT NULL
                OR NEW.released_by IS NOT NULL OR NEW.released_at IS NOT NULL THEN
            RAISE EXCEPTION 'legal hold: a hold is put unreleased; its release is asked for and made afterwards'
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END IF;
    IF OLD.released_by IS NOT NULL OR OLD.released_at IS NOT NULL THEN
        IF NEW IS DISTINCT FROM OLD THEN
            RAISE EXCEPTION 'legal hold %: it was released, and a released hold never changes', OLD.id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END IF;
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.case_id IS DISTINCT FROM OLD.case_id OR NEW.scope IS DISTINCT FROM OLD.scope
            OR NEW.target IS DISTINCT FROM OLD.target OR NEW.reason IS DISTINCT FROM OLD.reason
            OR NEW.created_by IS DISTINCT FROM OLD.created_by OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'legal hold %: its case, scope, target, reason, creator and creation time never change', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.from_time > OLD.from_time OR (OLD.to_time IS NULL AND NEW.to_time IS NOT NULL) OR NEW.to_time < OLD.to_time THEN
        RAISE EXCEPTION 'legal hold %: a hold is only ever widened; to hold less, release it and put a new one', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF (OLD.release_asked_by IS NOT NULL AND NEW.release_asked_by IS DISTINCT FROM OLD.release_asked_by)
            OR (OLD.release_asked_at IS NOT NULL AND NEW.release_asked_at IS DISTINCT FROM OLD.release_asked_at)
            OR (OLD.release_reason IS NOT NULL AND NEW.release_reason IS DISTINCT FROM OLD.release_reason) THEN
        RAISE EXCEPTION 'legal hold %: its release was asked for already, and the ask never changes', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF (NEW.release_asked_by IS NULL) <> (NEW.release_asked_at IS NULL)
            OR (NEW.release_asked_by IS NULL) <> (NEW.release_reason IS NULL) THEN
        RAISE EXCEPTION 'legal hold %: an ask for its release names who asked, when and why, all at once', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.released_by IS NOT NULL OR NEW.released_at IS NOT NULL THEN
        IF NEW.released_by IS NULL OR NEW.released_at IS NULL THEN
            RAISE EXCEPTION 'legal hold %: a release names who released it and when, both at once', OLD.id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF OLD.release_asked_by IS NULL THEN
            RAISE EXCEPTION 'legal hold %: nobody had asked for its release; one person asks, then another releases', OLD.id
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER legal_hold_changes BEFORE INSERT OR UPDATE ON legal_hold
    FOR EACH ROW EXECUTE FUNCTION quaestor_legal_hold_change();

DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON legal_hold FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON legal_hold TO %I', '${appRole}');
        EXECUTE format('GRANT UPDATE (from_time, to_time, release_asked_by, release_asked_at, release_reason, released_by,'
            ' released_at) ON legal_hold TO %I', '${appRole}');
    END IF;
END
$$;
