#!/usr/bin/env bash
# conformance-dev.sh: the official MCP conformance suite against Quaestor in dev mode, from a clean start to a clean
# stop. Starts ./mvnw quarkus:dev on a free loopback port (embedded H2, the in-process OIDC server), gets a token for
# the dev user alice from it, runs scripts/run-conformance.sh (every pass: 0.1.16, and 0.2.0-alpha.12 at 2025-11-25
# and at 2026-07-28) and stops the server it started, whatever the outcome. Exit status: run-conformance.sh's.
#
#   scripts/conformance-dev.sh                          # every pass, about 5 minutes
#   CONFORMANCE_PASSES=2026-07-28 scripts/conformance-dev.sh
set -euo pipefail
cd "$(dirname "$0")/.."

port="${CONFORMANCE_SERVER_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"
log="$(mktemp "${TMPDIR:-/tmp}/quaestor-dev.XXXXXX.log")"

# Its own process group, so that stopping it stops Maven and the application it forked, and nothing else.
setsid ./mvnw -B quarkus:dev -Dquarkus.http.port="$port" -Ddebug=false -Dquarkus.console.enabled=false \
  >"$log" 2>&1 < /dev/null &
dev=$!
stop() {
  kill -TERM -- "-$dev" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$dev" 2>/dev/null || return 0; sleep 1; done
  kill -KILL -- "-$dev" 2>/dev/null || true
}
trap stop EXIT INT TERM

echo "conformance-dev.sh: starting dev mode on port $port (log: $log)"
for _ in $(seq 1 300); do
  grep -q "Listening on: http://127.0.0.1:$port" "$log" 2>/dev/null && break
  kill -0 "$dev" 2>/dev/null || { echo "conformance-dev.sh: dev mode exited; its log:" >&2; tail -n 50 "$log" >&2; exit 2; }
  sleep 1
done
grep -q "Listening on: http://127.0.0.1:$port" "$log" || { echo "conformance-dev.sh: dev mode did not start in 300 s" >&2; exit 2; }

# A token for alice from the dev OIDC server, which the server names in its RFC 9728 metadata.
TOKEN=$(python3 - "$port" <<'PY'
import json, sys, urllib.parse, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
issuer = json.load(urllib.request.urlopen(base + "/.well-known/oauth-protected-resource"))["authorization_servers"][0]
form = urllib.parse.urlencode({"grant_type": "password", "username": "alice", "password": "alice",
    "client_id": "quaestor-dev", "client_secret": "quaestor-dev-secret", "scope": "openid resources:read"}).encode()
print(json.load(urllib.request.urlopen(issuer + "/token", data=form))["access_token"])
PY
)
export TOKEN
scripts/run-conformance.sh "http://127.0.0.1:$port"
