-- A URI prefix and a time range read one range of one index (as on PostgreSQL); it replaces the URI index.
CREATE INDEX audit_entry_uri_time ON audit_entry (uri, event_time);
DROP INDEX audit_entry_uri;
