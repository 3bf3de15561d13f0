-- A saved search may be shared with the other officers; only its owner removes it.
ALTER TABLE saved_search ADD COLUMN shared BOOLEAN DEFAULT FALSE NOT NULL;
