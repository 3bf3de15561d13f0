-- "Who read this folder last week": a URI prefix and a time range read one range of one index. The URI index gains
-- the time as its second column, so the rows of the folder outside the range are passed over in the index instead
-- of being matched against a bitmap of the whole range's rows (which grows with the log). It replaces the URI index
-- (its first column is the same, so a search by URI prefix alone reads it as before): writes keep the same number of
-- indexes.
CREATE INDEX audit_entry_uri_time ON audit_entry (uri text_pattern_ops, event_time);
DROP INDEX audit_entry_uri;
