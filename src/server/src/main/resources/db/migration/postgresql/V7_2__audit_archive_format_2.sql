-- Archiving with audit format 2 (docs/audit.md, "Retention"). The archive file is an export
-- (docs/audit-format.md, section 6) of what is archived: keys, the checkpoints and markers of every
-- log up to what is archived, the stored tree nodes that end there, and the records. A log in format 2
-- may be archived up to seq S only if a checkpoint of size S exists and the tree's right edge at S is
-- stored (the writer stores it with every checkpoint), so that later proofs never need the archived records.

CREATE OR REPLACE FUNCTION quaestor_audit_archive_export(before_time TIMESTAMP WITH TIME ZONE) RETURNS SETOF text
    LANGUAGE sql STABLE AS $$
    WITH archived AS (
        SELECT * FROM audit_entry WHERE chain_id IS NOT NULL
            AND tableoid IN (SELECT * FROM quaestor_audit_archivable(before_time))
    ), heads AS (
        SELECT chain_id, MAX(seq) AS seq FROM archived GROUP BY chain_id
    ), lines AS (
        SELECT 1 AS part, '' AS chain_id, 0::bigint AS pos, 0::bigint AS pos2,
            CASE WHEN vkey IS NOT NULL THEN json_build_object('type', 'key', 'vkey', vkey)::text
                 ELSE json_build_object('type', 'key', 'keyId', key_id, 'publicKey', public_key)::text END AS line
        FROM audit_key
        UNION ALL
        SELECT 2, k.chain_id, k.seq, 0, CASE WHEN k.note IS NOT NULL
                THEN json_build_object('type', 'checkpoint', 'log', k.chain_id, 'size', k.seq, 'note', k.note)::text
                ELSE json_build_object('type', 'checkpoint', 'log', k.chain_id, 'seq', k.seq, 'hash', k.head_hash,
                    'time', k.signed_at, 'keyId', k.key_id, 'signature', k.signature)::text END
        FROM audit_checkpoint k JOIN heads h ON h.chain_id = k.chain_id AND k.seq <= h.seq
        UNION ALL
        SELECT 3, a.chain_id, a.seq, 0, json_build_object('type', 'archive', 'log', a.chain_id, 'seq', a.seq,
            'hash', a.entry_hash)::text
        FROM audit_archive a JOIN heads h ON h.chain_id = a.chain_id
        UNION ALL
        SELECT 4, n.chain_id, n.level, n.idx, json_build_object('type', 'node', 'log', n.chain_id, 'level', n.level,
            'index', n.idx, 'hash', n.hash)::text
        FROM audit_tree_node n JOIN heads h ON h.chain_id = n.chain_id AND (n.idx + 1) * (1::bigint << n.level) <= h.seq
        UNION ALL
        SELECT 5, chain_id, seq, 0, (CASE WHEN format = 'v1' THEN json_strip_nulls(json_build_object('type', 'record',
                'v', format, 'chain', chain_id, 'seq', seq::text, 'prev', prev_hash, 'time', quaestor_audit_instant(event_time),
                'request', request_id, 'kind', kind, 'session', session_id, 'subject', subject, 'client', client_id,
                'tenant', tenant, 'roles', roles, 'ip', source_ip, 'ua', user_agent, 'method', method, 'action', action,
                'uri', uri, 'decision', decision, 'rules', rules, 'revision', policy_revision, 'outcome', outcome,
                'error', error_code::text, 'bytes', bytes::text, 'items', item_count::text, 'sha256', content_sha256,
                'latency_us', latency_us::text, 'detail', detail, 'hash', entry_hash))
            ELSE json_strip_nulls(json_build_object('type', 'record', 'v', format, 'log', chain_id, 'seq', seq::text,
                'time', quaestor_audit_instant(event_time), 'request', request_id, 'kind', kind, 'session', session_id,
                'correlation', correlation, 'subject', subject, 'client', client_id, 'tenant', tenant, 'roles', roles,
                'ip', source_ip, 'ua', user_agent, 'client_info', client_info, 'auth_context', auth_context,
                'protocol', protocol, 'method', method, 'action', action, 'uri', uri, 'decision', decision, 'rules', rules,
                'revision', policy_revision, 'outcome', outcome, 'error', error_code::text, 'bytes', bytes::text,
                'items', item_count::text, 'sha256', content_sha256, 'cache_scope', cache_scope,
                'latency_us', latency_us::text, 'count', event_count::text, 'first', quaestor_audit_instant(first_time),
                'last', quaestor_audit_instant(last_time), 'detail', detail, 'hash', entry_hash)) END)::text
        FROM archived
    )
    SELECT line FROM lines ORDER BY part, chain_id, pos, pos2
$$;
REVOKE ALL ON FUNCTION quaestor_audit_archive_export(TIMESTAMP WITH TIME ZONE) FROM PUBLIC;

CREATE OR REPLACE FUNCTION quaestor_audit_archive(before_time TIMESTAMP WITH TIME ZONE, expected_records BIGINT)
    RETURNS TABLE (chain_id text, seq bigint, entry_hash text, records bigint)
    LANGUAGE plpgsql AS $$
DECLARE
    p regclass;
    total bigint := 0;
    h record;
    lvl int;
BEGIN
    IF before_time > date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' THEN
        RAISE EXCEPTION 'refusing to archive the current month or later (before %)', before_time;
    END IF;
    -- Past months only: the writer no longer inserts there, so locking them blocks no request.
    FOR p IN SELECT * FROM quaestor_audit_archivable(before_time) LOOP
        EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', p);
    END LOOP;
    CREATE TEMP TABLE quaestor_archive_heads (chain_id text, seq bigint, entry_hash text, records bigint, first_seq bigint,
        format text) ON COMMIT DROP;
    INSERT INTO quaestor_archive_heads
        SELECT e.chain_id, MAX(e.seq), NULL, COUNT(*), MIN(e.seq), NULL FROM audit_entry e
        WHERE e.chain_id IS NOT NULL AND e.tableoid IN (SELECT * FROM quaestor_audit_archivable(before_time))
        GROUP BY e.chain_id;
    SELECT COALESCE(SUM(q.records), 0) INTO total FROM quaestor_archive_heads q;
    IF total <> expected_records THEN
        RAISE EXCEPTION 'the partitions hold % record(s) but % were exported; export again', total, expected_records;
    END IF;
    FOR h IN SELECT * FROM quaestor_archive_heads LOOP
        IF h.first_seq <> COALESCE((SELECT MAX(a.seq) FROM audit_archive a WHERE a.chain_id = h.chain_id), 0) + 1
           OR h.records <> h.seq - h.first_seq + 1 THEN
            RAISE EXCEPTION 'log %: the archived partitions do not hold one contiguous stretch (seq % to %, % records) '
                'following the last archive marker; verify the log first', h.chain_id, h.first_seq, h.seq, h.records;
        END IF;
        IF EXISTS (SELECT 1 FROM audit_entry e WHERE e.chain_id = h.chain_id AND e.seq <= h.seq
                   AND e.tableoid NOT IN (SELECT * FROM quaestor_audit_archivable(before_time))) THEN
            RAISE EXCEPTION 'log %: records up to seq % also lie in later partitions; they cannot be archived apart',
                h.chain_id, h.seq;
        END IF;
        UPDATE quaestor_archive_heads q SET entry_hash = e.entry_hash, format = e.format FROM audit_entry e
            WHERE q.chain_id = h.chain_id AND e.chain_id = h.chain_id AND e.seq = h.seq;
        IF NOT EXISTS (SELECT 1 FROM audit_checkpoint k JOIN quaestor_archive_heads q ON q.chain_id = k.chain_id
                       AND q.seq = k.seq AND (k.note IS NOT NULL OR q.entry_hash = k.head_hash)
                       WHERE q.chain_id = h.chain_id) THEN
            RAISE EXCEPTION 'log %: no signed checkpoint at seq %, the last record before %; '
                'archive up to an earlier month, or wait for a later one', h.chain_id, h.seq, before_time;
        END IF;
        IF (SELECT q.format FROM quaestor_archive_heads q WHERE q.chain_id = h.chain_id) <> 'v1' THEN
            -- The right edge of the tree at seq: what later proofs need once these records are gone.
            FOR lvl IN 0..3 LOOP
                IF (h.seq >> lvl) & 1 = 1 AND NOT EXISTS (SELECT 1 FROM audit_tree_node n WHERE n.chain_id = h.chain_id
                        AND n.level = lvl AND n.idx = (h.seq >> lvl) - 1) THEN
                    RAISE EXCEPTION 'log %: the tree nodes at seq % are not stored (the writer stores them with every checkpoint); '
                        'the log was written before they were: archive up to a later checkpoint', h.chain_id, h.seq;
                END IF;
            END LOOP;
        END IF;
    END LOOP;
    INSERT INTO audit_archive (chain_id, seq, entry_hash, before_time, records)
        SELECT q.chain_id, q.seq, q.entry_hash, before_time, q.records FROM quaestor_archive_heads q;
    FOR p IN SELECT * FROM quaestor_audit_archivable(before_time) LOOP
        EXECUTE format('ALTER TABLE audit_entry DETACH PARTITION %s', p);
        EXECUTE format('DROP TABLE %s', p);
    END LOOP;
    RETURN QUERY SELECT q.chain_id, q.seq, q.entry_hash, q.records FROM quaestor_archive_heads q ORDER BY 1;
END;
$$;
REVOKE ALL ON FUNCTION quaestor_audit_archive(TIMESTAMP WITH TIME ZONE, BIGINT) FROM PUBLIC;
