#!/usr/bin/env bash
# Audit write throughput (1, 16, 64 concurrent writers) into PostgreSQL (127.0.0.1:5432, or a private cluster
# started from the installed server programs when none answers there, as the tests do) and offline
# verification speed (on the export, and on a synthetic 1.5-million-record export, warm in-process and as
# `java ChainVerifier.java` with its start-up shown apart). Not part of `./mvnw verify`. A few minutes.
# Arguments: seconds per writer count (default 10), synthetic records (default 1500000).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" -Xmx1g -- dev.quaestor.audit.AuditThroughputBench "$@"
