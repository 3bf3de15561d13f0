-- A search by URI prefix (uriPrefix) reads a range of this index instead of the whole log (H2 compares strings by
-- their characters, so LIKE 'prefix%' can use a plain index).
CREATE INDEX audit_entry_uri ON audit_entry (uri);
