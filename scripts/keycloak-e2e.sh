#!/usr/bin/env bash
# End-to-end test with a real Keycloak : starts Keycloak 26 (scripts/keycloak.sh: Maven Central download,
# Temurin 25, realm deploy/keycloak/quaestor-realm.json imported) unless it already runs, builds the server, runs
# src/server/src/test/java/dev/quaestor/KeycloakEndToEnd.java against the packaged server in production mode, and stops
# Keycloak again if it started it, whatever the outcome. Uses PostgreSQL as `verify` does (127.0.0.1:5432, else a
# private cluster from the installed server programs).
#
#   scripts/keycloak-e2e.sh            # about 1-2 minutes once Keycloak is downloaded (the first run downloads ~200 MB)
set -euo pipefail
cd "$(dirname "$0")/.."

# Keycloak's first start includes its build step: allow for a slow, shared machine.
export KEYCLOAK_START_TIMEOUT="${KEYCLOAK_START_TIMEOUT:-300}"

started=0
cleanup() {
  if [[ $started == 1 ]]; then
    scripts/keycloak.sh stop || true
  fi
}
trap cleanup EXIT INT TERM

if ! scripts/keycloak.sh status >/dev/null 2>&1; then
  started=1                       # set first: a start that times out still leaves a process to stop
  scripts/keycloak.sh start
fi
issuer="http://127.0.0.1:${KEYCLOAK_PORT:-8180}/realms/quaestor"

# Only KeycloakEndToEnd runs: unit tests are skipped (-Dtest=NONE) and failsafe is pointed at this one class.
./mvnw -B -pl src/server -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=KeycloakEndToEnd -Dquaestor.e2e.issuer="$issuer"
