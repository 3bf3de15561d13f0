#!/usr/bin/env bash
# Fault checks for the audit log on a running production-mode server (not part of `./mvnw verify`):
#   1. PostgreSQL is stopped while a client reads in a loop, then started again: no content is served
#      while it is down, and reads succeed again within 10 s of its return.
#   2. The server is killed with SIGKILL mid-load and restarted: the chain continues.
#   3. Every read that returned content has its DECISION and OUTCOME records, and both verifiers
#      (online endpoint, offline tool on an export) report the chain intact.
# Needs: local PostgreSQL controllable with pg_ctlcluster (as root), Keycloak from scripts/keycloak.sh,
# jq, and the packaged server (./mvnw package -DskipTests). Uses database quaestor_fault and port 8097.
# It stops the machine's whole PostgreSQL cluster for a while: every other database on it goes down with it, so run
# it on a machine (or a cluster) of its own, not beside other work.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
port=8097 db=quaestor_fault work=$(mktemp -d) pgv=$(ls /etc/postgresql | sort -V | tail -n 1)
url="http://127.0.0.1:$port"
fail() { echo "FAIL: $*"; exit 1; }
ms() { date +%s%3N; }

scripts/keycloak.sh status >/dev/null 2>&1 || scripts/keycloak.sh start
[ -f src/server/target/quarkus-app/quarkus-run.jar ] || ./mvnw -B -q package -DskipTests
openssl genpkey -algorithm ed25519 -out "$work/key.pem" 2>/dev/null
psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"

start_server() {
  QUAESTOR_OIDC_ISSUER=http://127.0.0.1:8180/realms/quaestor QUAESTOR_OIDC_AUDIENCE=quaestor \
  QUAESTOR_DB_URL="jdbc:postgresql://127.0.0.1:5432/$db?reWriteBatchedInserts=true" QUAESTOR_DB_USER=postgres QUAESTOR_DB_PASSWORD=x \
  QUAESTOR_AUDIT_SIGNING_KEY_FILE="$work/key.pem" QUAESTOR_AUDIT_CHAIN_ID=fault-check QUARKUS_HTTP_PORT=$port \
    java -jar src/server/target/quarkus-app/quarkus-run.jar >>"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 60); do curl -sf "$url/q/health/ready" >/dev/null 2>&1 && return 0; sleep 0.5; done
  fail "server did not become ready (see $work/server.log)"
}
pg() { pg_ctlcluster --skip-systemctl-redirect "$pgv" main "$1" -m fast; }
trap 'kill "${client:-0}" "${server:-0}" 2>/dev/null || true; pg_isready -h 127.0.0.1 -q || pg start' EXIT

start_server
token=$(scripts/keycloak.sh token carol)
session=$(curl -s -D - -o /dev/null "$url/mcp" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fault","version":"1"}}}' \
  | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
( while true; do   # one line per read: time, HTTP status, content served?, request id, error code
    r=$(curl -s -m 15 -D "$work/h" "$url/mcp" -H "Authorization: Bearer $token" -H "Mcp-Session-Id: $session" \
        -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///docs/handbook/welcome.md"}}' || true)
    id=$(tr -d '\r' <"$work/h" | awk -F': ' 'tolower($1)=="x-request-id"{print $2}')
    code=$(tr -d '\r' <"$work/h" | awk 'NR==1{print $2}')
    echo "$(ms) ${code:-000} $(echo "$r" | jq -r 'if .result.contents[0].text then "content" else "none" end' 2>/dev/null || echo none) ${id:--} $(echo "$r" | jq -r '.error.code // "-"' 2>/dev/null || echo -)"
    sleep 0.05
  done ) >"$work/reads" &
client=$!

sleep 3; pg stop
# pg_ctlcluster can return before the postmaster is gone: the outage starts when it stops answering.
while pg_isready -h 127.0.0.1 -q; do sleep 0.1; done
down=$(ms); echo "PostgreSQL stopped"
sleep 12; starting=$(ms); pg start   # the outage ends, at the earliest, when the start begins
until pg_isready -h 127.0.0.1 -q; do sleep 0.1; done
up=$(ms); echo "PostgreSQL started"
sleep 10
echo "killing the server with SIGKILL mid-load"; kill -9 "$server"; wait "$server" 2>/dev/null || true
start_server; echo "server restarted"
sleep 5; kill "$client"; wait "$client" 2>/dev/null || true

# Judge reads that began after the outage started: a read finishing more than the commit timeout
# (5 s) plus a second after it cannot have begun before it.
served_down=$(awk -v a=$((down + 6000)) -v b="$starting" '$1>a && $1<b && $3=="content"' "$work/reads" | wc -l)
tried_down=$(awk -v a=$((down + 6000)) -v b="$starting" '$1>a && $1<b' "$work/reads" | wc -l)
first_ok=$(awk -v b="$starting" '$1>b && $3=="content"{print $1; exit}' "$work/reads")
echo "outage: $tried_down reads while down, $served_down served content; first content $(( ${first_ok:-0} - starting )) ms after PostgreSQL was started (ready after $(( up - starting )) ms)"
[ "$tried_down" -gt 0 ] || fail "no reads during the outage"
[ "$served_down" -eq 0 ] || fail "content served while the database was down"
[ -n "$first_ok" ] && [ $((first_ok - up)) -le 10000 ] || fail "did not recover within 10 s"

missing=0
for id in $(awk '$3=="content"{print $4}' "$work/reads"); do
  n=$(psql -h 127.0.0.1 -U postgres -d "$db" -tAc "SELECT count(DISTINCT kind) FROM audit_entry WHERE request_id='$id' AND kind IN ('DECISION','OUTCOME')")
  [ "$n" = 2 ] || { echo "request $id served content but has $n of 2 records"; missing=$((missing + 1)); }
done
served=$(awk '$3=="content"' "$work/reads" | wc -l)
echo "records: $served reads returned content, $missing without both records"
[ "$missing" -eq 0 ] || fail "served reads without their audit records"

auditor=$(scripts/keycloak.sh token auditor)
online=$(curl -s -H "Authorization: Bearer $auditor" "$url/audit/verify")
echo "online verification: $(echo "$online" | jq -c '{verified, logs: [.logs[] | {log, records, checkpoints}], problems}')"
[ "$(echo "$online" | jq -r .verified)" = true ] || fail "online verification failed"
curl -s -H "Authorization: Bearer $auditor" "$url/audit/export" -o "$work/export.jsonl"
curl -s "$url/.well-known/quaestor-audit-key" | jq -r .vkey >"$work/key.pub"
# The export's own record, at least, comes after the live log's last checkpoint: accept that unsigned tail.
java -jar src/verifier/target/quaestor-verify.jar verify "$work/export.jsonl" --trust "$work/key.pub" --allow-unsigned-tail \
  || fail "offline verification failed"
echo "PASS: audit fault checks (logs in $work)"
