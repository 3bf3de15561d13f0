-- H2 (the embedded default) rejects UPDATE and DELETE on audit tables with a Java trigger.
-- H2 has no TRUNCATE triggers and no roles here: anyone holding the database file can rewrite it.
-- The hash chain and signed checkpoints still reveal such changes; see README "Audit log".
CREATE TRIGGER audit_entry_immutable BEFORE UPDATE, DELETE ON audit_entry FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
CREATE TRIGGER audit_checkpoint_immutable BEFORE UPDATE, DELETE ON audit_checkpoint FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
CREATE TRIGGER audit_key_immutable BEFORE UPDATE, DELETE ON audit_key FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
