#!/usr/bin/env bash
# The audit log's costs in one run (not part of `./mvnw verify`; a few minutes): durable records/s at 1, 16 and 64
# concurrent writers into PostgreSQL, the Merkle log against the format-1 hash chain in alternating rounds (target
# ratio >= 0.8); quaestor-verify's speed on a synthetic export (target >= 500,000 records/s); prove and check times.
# PostgreSQL: 127.0.0.1:5432, or a private cluster started from the installed server programs when none answers there.
# Arguments: seconds per measurement (default 10), synthetic records (default 1500000), rounds (default 2).
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" -Xmx1g -- dev.quaestor.bench.audit.AuditThroughputBench "$@"
