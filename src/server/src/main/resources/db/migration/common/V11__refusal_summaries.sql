-- Audit format 3 (docs/audit-format.md): a summary of refused attempts names the URIs its events named, each with
-- its count (uris), and how many events those counts leave out (uris_more). Other records leave both empty.
ALTER TABLE audit_entry ADD COLUMN uris VARCHAR(33439);
ALTER TABLE audit_entry ADD COLUMN uris_more BIGINT;
