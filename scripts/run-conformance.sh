#!/usr/bin/env bash
# Runs the official MCP conformance suite against a running Quaestor with authentication and policy on.
#
#   TOKEN=<bearer token> scripts/run-conformance.sh [SERVER_BASE_URL]     (default http://127.0.0.1:8080)
#
# The suite cannot send an Authorization header, so this starts scripts/auth-proxy.mjs on a free loopback
# port in front of the server (it adds the token and forwards Host/Origin unchanged), runs
# scripts/conformance.sh through it, and stops the proxy. Exit status: 0 if every scenario passed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
server="${1:-http://127.0.0.1:8080}"
: "${TOKEN:?set TOKEN to a bearer token for the server (see README)}"
port="${PROXY_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}"

TOKEN="$TOKEN" node "$here/auth-proxy.mjs" --listen "127.0.0.1:$port" --target "$server" --quiet &
proxy=$!
trap 'kill $proxy 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
MCP_URL="http://127.0.0.1:$port/mcp" "$here/conformance.sh"
