#!/usr/bin/env bash
# conformance.sh — run the official MCP conformance scenarios that apply to a
# resources-only server (Quaestor) against an already running endpoint.
#
# HOW IT FITS TOGETHER
#   The suite (@modelcontextprotocol/conformance, server mode) cannot send
#   extra HTTP headers (no option/env var for Authorization), while Quaestor
#   requires a bearer token. So the suite talks to scripts/auth-proxy.mjs,
#   which adds "Authorization: Bearer <token>" and forwards everything else
#   (including Host and Origin, untouched) to Quaestor:
#
#     conformance suite --> auth-proxy (127.0.0.1:P2) --> Quaestor (127.0.0.1:P1)/mcp
#
#   A wrapper (written separately) is expected to do:
#     1. start Quaestor on 127.0.0.1:P1 with a known token;
#     2. node scripts/auth-proxy.mjs --listen 127.0.0.1:P2 \
#            --target http://127.0.0.1:P1 --token-file "$TOKEN_FILE" &
#        (prints "auth-proxy listening on http://127.0.0.1:P2 -> ..." on stdout)
#     3. MCP_URL=http://127.0.0.1:P2/mcp scripts/conformance.sh
#     4. stop the proxy and the server (by PID).
#
#   Notes for the server side:
#   * dns-rebinding-protection sends Host: 127.0.0.1:P2 (the PROXY's port) as the
#     "good" value, so Quaestor must accept loopback hosts on any port
#     (compare the host name only: localhost, 127.0.0.1, [::1]).
#   * MCP_URL must use localhost / 127.0.0.1 / [::1], otherwise
#     dns-rebinding-protection fails by design.
#
# USAGE
#   MCP_URL=http://127.0.0.1:8931/mcp scripts/conformance.sh
#   scripts/conformance.sh http://127.0.0.1:8931/mcp          # same thing
#
# ENVIRONMENT
#   MCP_URL                 endpoint to test (the proxy URL). Required (or $1).
#   CONFORMANCE_SCENARIOS   space-separated scenario list (default: the nine below).
#   CONFORMANCE_VERSION     npm version/tag of @modelcontextprotocol/conformance
#                           (default 0.1.16, the version these checks were verified
#                           against; "latest" to float).
#   CONFORMANCE_SPEC_VERSION  --spec-version for the suite (e.g. 2026-07-28: the
#                           stateless variant of each scenario); default: the suite's.
#   CONFORMANCE_EXPECTED_FAILURES  YAML baseline of failures that cannot apply to a
#                           resources-only server (--expected-failures): a scenario
#                           whose only failures are listed there passes; a listed
#                           one that passes fails (the baseline is stale).
#   CONFORMANCE_OUT_DIR     where per-scenario logs and checks.json go
#                           (default: a fresh temp dir, printed at the end).
#   CONFORMANCE_TIMEOUT     seconds per scenario (default 180).
#   QUAESTOR_TOOLS          cache dir for a downloaded Node 22
#                           (default $HOME/.cache/quaestor-tools).
#
# EXIT STATUS
#   0 if every scenario passed, 1 if any failed, 2 on setup errors.

set -euo pipefail

DEFAULT_SCENARIOS="server-initialize ping resources-list resources-read-text resources-read-binary resources-templates-read resources-subscribe resources-unsubscribe server-sse-multiple-streams dns-rebinding-protection"

MCP_URL="${1:-${MCP_URL:-}}"
SCENARIOS="${CONFORMANCE_SCENARIOS:-$DEFAULT_SCENARIOS}"
CONFORMANCE_VERSION="${CONFORMANCE_VERSION:-0.1.16}"
TIMEOUT_S="${CONFORMANCE_TIMEOUT:-180}"
SPEC_VERSION="${CONFORMANCE_SPEC_VERSION:-}"
EXPECTED_FAILURES="${CONFORMANCE_EXPECTED_FAILURES:-}"
TOOLS_DIR="${QUAESTOR_TOOLS:-$HOME/.cache/quaestor-tools}"

log() { printf '%s\n' "conformance.sh: $*" >&2; }
die() { log "$*"; exit 2; }

[[ -n "$MCP_URL" ]] || die "set MCP_URL (e.g. MCP_URL=http://127.0.0.1:8931/mcp) or pass it as the first argument"

# ---------------------------------------------------------------- Node 22 ---
# shellcheck source=node22.sh
source "$(dirname "${BASH_SOURCE[0]}")/node22.sh"
ensure_node22 || die "Node 22 is needed"
command -v npx >/dev/null 2>&1 || die "npx not found (install npm)"
log "using node $(node --version) at $(command -v node)"

# ------------------------------------------------------------- preflight ---
case "$MCP_URL" in
  http://localhost[:/]*|http://127.0.0.1[:/]*|http://\[::1\][:/]*) ;;
  *) log "warning: $MCP_URL is not a loopback URL; dns-rebinding-protection will fail by design" ;;
esac
if command -v curl >/dev/null 2>&1; then
  # Any HTTP status means something is listening (a GET may legitimately open
  # an endless SSE stream, hence --max-time); only "no HTTP answer" aborts.
  http_code="$(curl -s -o /dev/null --max-time 3 -w '%{http_code}' "$MCP_URL" 2>/dev/null || true)"
  if [[ -z "$http_code" || "$http_code" == 000 ]]; then
    die "nothing answers at $MCP_URL (start the server and scripts/auth-proxy.mjs first)"
  fi
fi

OUT_DIR="${CONFORMANCE_OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/quaestor-conformance.XXXXXX")}"
mkdir -p "$OUT_DIR/results"

run_with_timeout() {
  if command -v timeout >/dev/null 2>&1; then timeout "$TIMEOUT_S" "$@"; else "$@"; fi
}

# ------------------------------------------------------------------ run ---
PKG="@modelcontextprotocol/conformance@$CONFORMANCE_VERSION"
declare -a SUMMARY=()
failed=0
for scenario in $SCENARIOS; do
  logfile="$OUT_DIR/$scenario.log"
  log "running $scenario"
  set +e
  extra=()
  [[ -n "$SPEC_VERSION" ]] && extra+=(--spec-version "$SPEC_VERSION")
  [[ -n "$EXPECTED_FAILURES" ]] && extra+=(--expected-failures "$EXPECTED_FAILURES")
  run_with_timeout npx -y "$PKG" server --url "$MCP_URL" --scenario "$scenario" "${extra[@]}" \
      -o "$OUT_DIR/results" >"$logfile" 2>&1
  rc=$?
  set -e
  # The suite prints "Passed: X/Y, N failed, W warnings" and exits 1 on any FAILURE check.
  counts="$(grep -Eo 'Passed: [0-9]+/[0-9]+, [0-9]+ failed, [0-9]+ warnings' "$logfile" | tail -n1 || true)"
  if (( rc == 0 )) && grep -q 'Expected failures (in baseline)' "$logfile"; then
    SUMMARY+=("N/A   $scenario  (${counts:-no counts}; only failures in the baseline)")
  elif (( rc == 0 )); then
    SUMMARY+=("PASS  $scenario  (${counts:-no counts})")
  else
    failed=$((failed + 1))
    (( rc == 124 )) && counts="timed out after ${TIMEOUT_S}s"
    SUMMARY+=("FAIL  $scenario  (${counts:-exit $rc})")
    echo "----- $scenario output (exit $rc) -----"
    grep -v 'npm warn' "$logfile" || true
    echo "----- end $scenario -----"
  fi
done

echo
echo "=== MCP conformance summary ($PKG${SPEC_VERSION:+, spec $SPEC_VERSION} against $MCP_URL) ==="
printf '%s\n' "${SUMMARY[@]}"
total=$(wc -w <<<"$SCENARIOS")
echo "$((total - failed))/$total scenarios passed or failed only as the baseline expects; logs and checks.json in $OUT_DIR"

(( failed == 0 )) || exit 1
exit 0
