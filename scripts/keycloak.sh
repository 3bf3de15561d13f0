#!/usr/bin/env bash
# Local Keycloak for Quaestor development and end-to-end tests.
#
#   scripts/keycloak.sh install                only download + unpack Keycloak into the cache dir
#   scripts/keycloak.sh start                  download (if missing), start on 127.0.0.1 and wait until ready
#   scripts/keycloak.sh stop                   stop the instance started by this script
#   scripts/keycloak.sh status                 exit 0 if running and the quaestor realm answers
#   scripts/keycloak.sh token USER [CLIENT]    print an access token (password grant; password = USER)
#   scripts/keycloak.sh client-token [CLIENT]  print an access token (client_credentials grant, service account)
#   scripts/keycloak.sh claims USER [CLIENT]   print the decoded access-token payload (JSON)
#   scripts/keycloak.sh decode [TOKEN]         decode a JWT payload (argument or stdin)
#
# LOCAL TESTING ONLY. Everything here is deliberately insecure: Keycloak runs in dev mode
# (start-dev, H2 file database, plain HTTP), users' passwords equal their usernames, the
# confidential client secret is the public constant 'quaestor-dev-secret' and the bootstrap
# admin is admin/admin unless overridden. Never reuse this realm or these credentials elsewhere.
#
# Realm: deploy/keycloak/quaestor-realm.json (realm 'quaestor').
#   issuer    http://127.0.0.1:${KEYCLOAK_PORT}/realms/quaestor
#   clients   quaestor-mcp-client (confidential, secret quaestor-dev-secret, password grant +
#             service account + code flow with PKCE), mcp-inspector (public, code flow + PKCE),
#             quaestor-audit-cli (public, device grant + password grant, staff roles only: the prod
#             overlay's staff client; a token: KEYCLOAK_SCOPE=openid scripts/keycloak.sh token auditor
#             quaestor-audit-cli) and other-service (confidential, secret other-dev-secret, client
#             credentials; tokens for audience other-api, which Quaestor must refuse)
#   users     alice, bob, carol, dave (no roles), admin, auditor and erin (two auditors) (password = username)
#
# Environment:
#   QUAESTOR_TOOLS          cache dir for downloads, pid and log (default ~/.cache/quaestor-tools)
#   KEYCLOAK_VERSION        default 26.7.3 (Maven Central org.keycloak:keycloak-quarkus-dist:tar.gz)
#   KEYCLOAK_PORT           default 8180 (HTTP, bound to 127.0.0.1 only)
#   KEYCLOAK_JAVA_HOME      JDK 21+ for Keycloak (default /usr/lib/jvm/temurin-25-jdk-amd64)
#   KEYCLOAK_START_TIMEOUT  seconds to wait for readiness (default 180)
#   KEYCLOAK_KEEP_DATA=1    keep the H2 database between starts (default: wiped on every start so
#                           the realm file is always re-imported; signing keys then change per start)
#   KC_BOOTSTRAP_ADMIN_USERNAME / KC_BOOTSTRAP_ADMIN_PASSWORD   master-realm admin (default admin/admin)
#   KEYCLOAK_SCOPE          scope requested by token/client-token (default "openid resources:read";
#                           resources:read is an *optional* scope of quaestor-mcp-client, so e.g.
#                           KEYCLOAK_SCOPE=openid yields a token WITHOUT it, for negative tests)
#   KEYCLOAK_PASSWORD       password for `token` (default: the username)
#   KEYCLOAK_CLIENT_SECRET  client secret (default quaestor-dev-secret for quaestor-mcp-client)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
REALM_FILE="$REPO_ROOT/deploy/keycloak/quaestor-realm.json"

TOOLS="${QUAESTOR_TOOLS:-$HOME/.cache/quaestor-tools}"
KC_VERSION="${KEYCLOAK_VERSION:-26.7.3}"
KC_HOME="$TOOLS/keycloak-$KC_VERSION"
PORT="${KEYCLOAK_PORT:-8180}"
HOST=127.0.0.1
BASE_URL="http://$HOST:$PORT"
REALM=quaestor
ISSUER="$BASE_URL/realms/$REALM"
KC_JAVA="${KEYCLOAK_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
TIMEOUT="${KEYCLOAK_START_TIMEOUT:-180}"
PID_FILE="$TOOLS/keycloak.pid"
LOG_FILE="$TOOLS/keycloak.log"
DEFAULT_CLIENT=quaestor-mcp-client
# Fixed dev secret of quaestor-mcp-client (see the realm file). Local testing only.
DEV_SECRET=quaestor-dev-secret

log() { echo "keycloak.sh: $*" >&2; }
die() { log "$*"; exit 1; }

running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid; pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
  return 1
}

realm_ready() {
  curl -fsS -o /dev/null --max-time 5 "$ISSUER/.well-known/openid-configuration" 2>/dev/null
}

ensure_installed() {
  [[ -x "$KC_HOME/bin/kc.sh" ]] && return 0
  mkdir -p "$TOOLS"
  local dl; dl="$(mktemp -d "$TOOLS/download.XXXXXX")"
  local artifact="org.keycloak:keycloak-quarkus-dist:$KC_VERSION:tar.gz"
  local mvn_cmd
  if command -v mvn >/dev/null 2>&1; then mvn_cmd=mvn
  elif [[ -x "$REPO_ROOT/mvnw" ]]; then mvn_cmd="$REPO_ROOT/mvnw"
  else die "neither mvn nor ./mvnw found; cannot download $artifact"; fi
  log "downloading $artifact from Maven Central into $TOOLS"
  # Run from the download dir so the project's pom.xml is not involved.
  (cd "$dl" && "$mvn_cmd" -q -B dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dl" >&2) \
    || { rm -rf "$dl"; die "download of $artifact failed"; }
  log "unpacking into $KC_HOME"
  tar -xzf "$dl/keycloak-quarkus-dist-$KC_VERSION.tar.gz" -C "$TOOLS" \
    || { rm -rf "$dl"; die "unpack failed"; }
  rm -rf "$dl"
  [[ -x "$KC_HOME/bin/kc.sh" ]] || die "unexpected archive layout: $KC_HOME/bin/kc.sh missing"
}

check_java() {
  [[ -x "$KC_JAVA/bin/java" ]] || die "JDK not found at $KC_JAVA (set KEYCLOAK_JAVA_HOME to a JDK 21+)"
  local major
  major="$("$KC_JAVA/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')"
  [[ -n "$major" && "$major" -ge 21 ]] || die "Keycloak $KC_VERSION needs Java 21+, $KC_JAVA is Java ${major:-?}"
}

cmd_start() {
  if pid="$(running_pid)"; then
    if realm_ready; then log "already running (pid $pid) at $BASE_URL"; return 0; fi
    die "process $pid from $PID_FILE is alive but $ISSUER does not answer; run '$0 stop' first"
  fi
  if curl -fsS -o /dev/null --max-time 2 "$BASE_URL/" 2>/dev/null; then
    die "something not started by this script already listens on $BASE_URL"
  fi
  [[ -f "$REALM_FILE" ]] || die "realm file missing: $REALM_FILE"
  ensure_installed
  check_java

  if [[ "${KEYCLOAK_KEEP_DATA:-0}" != 1 ]]; then
    rm -rf "$KC_HOME/data/h2" "$KC_HOME/data/tmp"
  fi
  mkdir -p "$KC_HOME/data/import"
  rm -f "$KC_HOME/data/import/"*.json
  cp "$REALM_FILE" "$KC_HOME/data/import/quaestor-realm.json"

  local args=(
    start-dev
    --http-host="$HOST"
    --http-port="$PORT"
    # fixed issuer: tokens always carry iss=http://127.0.0.1:PORT/realms/quaestor,
    # whichever host name the client used to reach Keycloak
    --hostname="$BASE_URL"
    --import-realm
    # everything stays on loopback: local (non-clustered) caches, no management interface,
    # no OpenTelemetry export, no features that fetch remote documents or talk to external
    # services (Kerberos KDCs, client metadata documents, brokers)
    --cache=local
    --health-enabled=false
    --metrics-enabled=false
    --tracing-enabled=false
    --features-disabled=kerberos,twitter-broker,instagram-broker,kubernetes-service-accounts,client-auth-federated,spiffe
    --log-console-color=false
  )
  : > "$LOG_FILE"
  log "starting Keycloak $KC_VERSION on $BASE_URL (log: $LOG_FILE)"
  local t0; t0=$(date +%s)
  # setsid: own session/process group, detached from this shell; no job control here, so
  # setsid does not fork and $! is the kc.sh pid (kc.sh forwards TERM to its java child).
  JAVA_HOME="$KC_JAVA" \
  KC_BOOTSTRAP_ADMIN_USERNAME="${KC_BOOTSTRAP_ADMIN_USERNAME:-admin}" \
  KC_BOOTSTRAP_ADMIN_PASSWORD="${KC_BOOTSTRAP_ADMIN_PASSWORD:-admin}" \
  JAVA_OPTS_APPEND="${JAVA_OPTS_APPEND:-} -Djava.net.preferIPv4Stack=true" \
    setsid nohup "$KC_HOME/bin/kc.sh" "${args[@]}" >>"$LOG_FILE" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" > "$PID_FILE"

  while :; do
    if realm_ready; then
      log "ready after $(( $(date +%s) - t0 ))s (pid $pid); issuer $ISSUER"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      tail -n 40 "$LOG_FILE" >&2 || true
      die "Keycloak exited during start-up; see $LOG_FILE"
    fi
    if (( $(date +%s) - t0 >= TIMEOUT )); then
      tail -n 40 "$LOG_FILE" >&2 || true
      die "not ready after ${TIMEOUT}s (still running as pid $pid; '$0 stop' to stop it)"
    fi
    sleep 1
  done
}

cmd_stop() {
  local pid
  if ! pid="$(running_pid)"; then
    rm -f "$PID_FILE"; log "not running"; return 0
  fi
  log "stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "still alive after 30s; killing process group $pid"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$PID_FILE"
  log "stopped"
}

cmd_status() {
  local pid
  if pid="$(running_pid)"; then
    if realm_ready; then echo "running (pid $pid) $BASE_URL issuer=$ISSUER"; return 0; fi
    echo "starting or unhealthy (pid $pid); $ISSUER not answering"; return 1
  fi
  if realm_ready; then echo "realm answers at $ISSUER but not started by this script (no pid file)"; return 0; fi
  echo "stopped"; return 3
}

json_field() { # json_field NAME  < json
  python3 -c 'import sys,json
d=json.load(sys.stdin); v=d.get(sys.argv[1])
sys.exit(1) if v is None else print(v)' "$1"
}

request_token() { # request_token CLIENT curl-form-args...
  local client="$1"; shift
  local secret="${KEYCLOAK_CLIENT_SECRET:-}"
  [[ -z "$secret" && "$client" == "$DEFAULT_CLIENT" ]] && secret="$DEV_SECRET"
  local auth=(-d "client_id=$client")
  [[ -n "$secret" ]] && auth+=(-d "client_secret=$secret")
  local resp
  resp="$(curl -sS --max-time 20 "$ISSUER/protocol/openid-connect/token" \
          "${auth[@]}" -d "scope=${KEYCLOAK_SCOPE:-openid resources:read}" "$@")" \
    || die "token request failed (is Keycloak running? '$0 status')"
  printf '%s' "$resp" | json_field access_token || die "no access_token in response: $resp"
}

cmd_token() {
  [[ $# -ge 1 ]] || die "usage: $0 token USER [CLIENT]"
  local user="$1" client="${2:-$DEFAULT_CLIENT}"
  request_token "$client" -d grant_type=password -d "username=$user" \
    --data-urlencode "password=${KEYCLOAK_PASSWORD:-$user}"
}

cmd_client_token() {
  request_token "${1:-$DEFAULT_CLIENT}" -d grant_type=client_credentials
}

cmd_decode() {
  local tok="${1:-}"
  [[ -n "$tok" ]] || tok="$(cat)"
  python3 -c 'import sys,json,base64
p=sys.argv[1].strip().split(".")[1]; p+="="*(-len(p)%4)
print(json.dumps(json.loads(base64.urlsafe_b64decode(p)),indent=2))' "$tok"
}

case "${1:-}" in
  install)      ensure_installed; echo "$KC_HOME" ;;
  start)        cmd_start ;;
  stop)         cmd_stop ;;
  restart)      cmd_stop; cmd_start ;;
  status)       cmd_status ;;
  token)        shift; cmd_token "$@" ;;
  client-token) shift; cmd_client_token "$@" ;;
  claims)       shift; tok="$(cmd_token "$@")"; cmd_decode "$tok" ;;
  decode)       shift; cmd_decode "$@" ;;
  *) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
