#!/usr/bin/env bash
# Start-up of the packaged server with Hibernate ORM active and inactive (quarkus.hibernate-orm.active=false),
# alternating, on one migrated PostgreSQL database: restart-to-ready for each, and their medians.
# Usage: src/bench/startup-orm.sh [PAIRS] (default 5). Not part of `verify`.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exec "$top/src/bench/run.sh" -- dev.quaestor.bench.StartupOrmBench "$@"
