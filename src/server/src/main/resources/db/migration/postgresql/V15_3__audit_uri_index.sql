-- A search by URI prefix (uriPrefix) reads a range of an index instead of the whole log. text_pattern_ops compares
-- character by character, so the index serves LIKE 'prefix%' whatever the database's collation. The other half of
-- the condition, the URIs a summary of refused attempts names, is looked for in those summaries only: few rows,
-- with an index of their own.
CREATE INDEX audit_entry_uri ON audit_entry (uri text_pattern_ops);
CREATE INDEX audit_entry_summaries ON audit_entry (id) WHERE kind = 'ATTEMPT_SUMMARY';
