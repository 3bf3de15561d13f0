-- The application role keeps the console's state: policy revisions and activations are only added; reviews are
-- added and signed off (UPDATE), their findings and run rows added; saved searches added and removed.
DO $$
BEGIN
    IF '${appRole}' <> '__none__' THEN
        EXECUTE format('REVOKE ALL ON policy_revision, policy_revision_file, policy_activation, review_run, review, '
            || 'review_finding, saved_search FROM %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT ON policy_revision, policy_revision_file, policy_activation, review_finding TO %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE ON review, review_run TO %I', '${appRole}');
        EXECUTE format('GRANT SELECT, INSERT, DELETE ON saved_search TO %I', '${appRole}');
    END IF;
END
$$;
