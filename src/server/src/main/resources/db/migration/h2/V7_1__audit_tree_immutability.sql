CREATE TRIGGER audit_tree_node_immutable BEFORE UPDATE, DELETE ON audit_tree_node FOR EACH ROW CALL 'dev.quaestor.audit.H2ImmutableTrigger';
