-- Each case's seal key: 32 random bytes under which a record of a change to the case holds the HMAC-SHA-256 of the
-- text staff typed (a title, a note, a hold's target) in place of the text. Its members are given it to check a
-- record against the text; anyone else who reads the trail cannot test guesses against the record. A case opened
-- before has none until a change needs one, which sets it; once set, it never changes (the records sealed under it
-- would no longer check).
ALTER TABLE audit_case ADD COLUMN seal_key BYTEA;
ALTER TABLE audit_case ADD CONSTRAINT audit_case_seal_key_length CHECK (seal_key IS NULL OR octet_length(seal_key) = 32);
CREATE OR REPLACE FUNCTION quaestor_case_seal_key_once() RETURNS trigger AS $$
BEGIN
    IF OLD.seal_key IS NOT NULL AND NEW.seal_key IS DISTINCT FROM OLD.seal_key THEN
        RAISE EXCEPTION 'the seal key of case % is set once and never changed', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER audit_case_seal_key_once BEFORE UPDATE OF seal_key ON audit_case
    FOR EACH ROW EXECUTE FUNCTION quaestor_case_seal_key_once();
-- The application sets the key of a case that has none; it changes nothing else of a case's row.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('GRANT UPDATE (seal_key) ON audit_case TO %I', '${appRole}');
    END IF;
END
$$;
