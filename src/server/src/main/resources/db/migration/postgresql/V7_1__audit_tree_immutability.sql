-- Tree nodes are append-only, like every audit table; the application may only INSERT and SELECT them.
CREATE TRIGGER audit_tree_node_immutable BEFORE UPDATE OR DELETE ON audit_tree_node
    FOR EACH ROW EXECUTE FUNCTION quaestor_audit_immutable();
CREATE TRIGGER audit_tree_node_no_truncate BEFORE TRUNCATE ON audit_tree_node
    FOR EACH STATEMENT EXECUTE FUNCTION quaestor_audit_immutable();
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON audit_tree_node FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON audit_tree_node TO %I', '${appRole}');
    END IF;
END
$$;
