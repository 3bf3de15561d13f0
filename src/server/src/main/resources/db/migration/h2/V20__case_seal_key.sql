-- Each case's seal key: 32 random bytes under which a record of a change to the case holds the HMAC-SHA-256 of the
-- text staff typed (a title, a note, a hold's target) in place of the text. A case opened before has none until a
-- change needs one, which sets it; once set, it never changes.
ALTER TABLE audit_case ADD COLUMN seal_key VARBINARY(32);
ALTER TABLE audit_case ADD CONSTRAINT audit_case_seal_key_length CHECK (seal_key IS NULL OR OCTET_LENGTH(seal_key) = 32);
