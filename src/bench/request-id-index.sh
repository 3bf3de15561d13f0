#!/usr/bin/env bash
# Why request ids are time-ordered (README "What is recorded"): inserts into a table with a varchar id index,
# random UUIDs (version 4) against time-ordered ones (version 7 shape: milliseconds first), in rounds of
# ROWS rows, against local PostgreSQL. Prints the seconds each round took; the gap widens as the index
# outgrows shared_buffers. Uses and then drops a scratch database. Usage: src/bench/request-id-index.sh [ROUNDS=6] [ROWS=400000]
set -euo pipefail
rounds="${1:-6}"; rows="${2:-400000}"
pg=(psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q)
"${pg[@]}" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS quaestor_bench_reqid" -c "CREATE DATABASE quaestor_bench_reqid"
trap '"${pg[@]}" -c "DROP DATABASE IF EXISTS quaestor_bench_reqid"' EXIT
"${pg[@]}" -d quaestor_bench_reqid <<'SQL'
CREATE TABLE random_ids  (id bigserial PRIMARY KEY, request_id varchar(64) NOT NULL, payload text);
CREATE INDEX ON random_ids (request_id);
CREATE TABLE ordered_ids (id bigserial PRIMARY KEY, request_id varchar(64) NOT NULL, payload text);
CREATE INDEX ON ordered_ids (request_id);
-- 12 hex digits of milliseconds, the version digit, then random hex: the order of a version 7 UUID's text
CREATE FUNCTION ordered_id(ms bigint) RETURNS text LANGUAGE sql AS
  $$ SELECT lpad(to_hex(ms), 12, '0') || '7' || substr(md5(random()::text), 1, 19) $$;
SQL
echo "shared_buffers: $("${pg[@]}" -Atc 'SHOW shared_buffers')"
for r in $(seq 1 "$rounds"); do
  for t in random_ids ordered_ids; do
    if [[ $t == random_ids ]]; then id="gen_random_uuid()::text"; else id="ordered_id((extract(epoch FROM clock_timestamp()) * 1000)::bigint + g)"; fi
    s=$(date +%s.%N)
    "${pg[@]}" -d quaestor_bench_reqid -c "INSERT INTO $t (request_id, payload) SELECT $id, repeat('x', 300) FROM generate_series(1, $rows) g"
    printf 'round %d %-12s %6.2f s\n' "$r" "$t" "$(echo "$(date +%s.%N) - $s" | bc)"
  done
done
"${pg[@]}" -d quaestor_bench_reqid -Atc "SELECT 'index sizes: ' || string_agg(relname || ' ' || pg_size_pretty(pg_relation_size(oid)), ', ') FROM pg_class WHERE relname LIKE '%request_id_idx'"
