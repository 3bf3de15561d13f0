CREATE TRIGGER audit_anchor_immutable BEFORE UPDATE, DELETE ON audit_anchor FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
