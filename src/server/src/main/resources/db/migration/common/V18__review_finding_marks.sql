-- A finding of the daily review as a reviewer marked it: reviewed, dismissed (with a reason) or escalated (with a
-- note), by whom, when, and the request id of the mark's audit record. Null while nobody has.
ALTER TABLE review_finding ADD COLUMN mark VARCHAR(16);
ALTER TABLE review_finding ADD COLUMN marked_by VARCHAR(2048);
ALTER TABLE review_finding ADD COLUMN marked_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE review_finding ADD COLUMN mark_note VARCHAR(8192);
ALTER TABLE review_finding ADD COLUMN mark_request VARCHAR(64);
