#!/usr/bin/env bash
# Isolation: a legitimate client reads a public 1 KiB file at 20% of the audited saturation (open loop, its own
# limits far above its rate), alone and then beside each abuser in turn: stalled exports, concurrent verifies of a
# 400,000-record signed log, slow request bodies, an initialize flood, GET streams, listens of 1,000 URIs, large
# reads read slowly, listings of a 20,000-file mount, 1,000,000-byte bodies, batches of 50 reads of a 1,000,000-byte
# file. Prints one table: the client's p50/p99 and errors per phase, audit rows/s, database growth,
# server heap and threads. Starts a production-mode server on local PostgreSQL (fresh database
# quaestor_bench_isolation) and a local signed-token issuer. Not part of `verify`. About 20 minutes with the
# default 60 s phases; PHASE_SECONDS=10 (or --phase-seconds 10) for a quick run; --help for the options.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" -Xmx1g -- dev.quaestor.bench.isolation.IsolationBench "$@"
