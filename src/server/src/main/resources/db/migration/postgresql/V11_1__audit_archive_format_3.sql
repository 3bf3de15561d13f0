-- Archiving with audit format 3: records in version 3 (summaries of refused attempts) carry uris and uris_more,
-- exported in format order like every other field (docs/audit-format.md, section 6). Otherwise as in V7_2.

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
                'last', quaestor_audit_instant(last_time), 'uris', uris, 'uris_more', uris_more::text, 'detail', detail,
                'hash', entry_hash)) END)::text
        FROM archived
    )
    SELECT line FROM lines ORDER BY part, chain_id, pos, pos2
$$;
REVOKE ALL ON FUNCTION quaestor_audit_archive_export(TIMESTAMP WITH TIME ZONE) FROM PUBLIC;
