#!/usr/bin/env bash
# Audit write throughput (1, 16, 64 concurrent writers) into PostgreSQL on 127.0.0.1:5432 and offline
# verification speed. Not part of `./mvnw verify`. About a minute. Argument: seconds per writer count (default 10).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" -Xmx1g -- dev.quaestor.audit.AuditThroughputBench "$@"
