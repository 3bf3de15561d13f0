-- The logs written so far carry on from their last record (or their archive marker, if everything is archived).
INSERT INTO audit_head (chain_id, size)
    SELECT chain_id, MAX(seq) FROM (SELECT chain_id, seq FROM audit_entry UNION ALL SELECT chain_id, seq FROM audit_archive) s
    WHERE chain_id IS NOT NULL AND seq IS NOT NULL GROUP BY chain_id;
