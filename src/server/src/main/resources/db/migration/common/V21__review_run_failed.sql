-- A daily review run that failed marks its run row failed: the day's claim is given back, and the next run (the
-- catch-up, the console's Produce, another replica) takes the day over at once rather than after stale-run-after.
ALTER TABLE review_run ADD COLUMN failed_at TIMESTAMP WITH TIME ZONE;
