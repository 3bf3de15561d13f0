#!/usr/bin/env bash
# Load on the whole audited path (MCP resources/read of a 1 KiB file: token, policy, two committed
# audit records, rate limit, provider) beside the baseline endpoint on the same server, in one run.
# Starts a production-mode server on local PostgreSQL (fresh database quaestor_bench_load) and a
# local signed-token issuer; prints throughput, latency percentiles, errors by kind, server CPU/RSS,
# start-up, an overload phase and the targets. Not part of `verify`. `src/bench/load.sh --help` for options;
# the full 5-minute soak is `src/bench/load.sh --overload-seconds 300`.
set -euo pipefail
# run.sh packages the server (server/target/quarkus-app) and the harness in one reactor build.
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exec "$top/src/bench/run.sh" -Xmx1g -- dev.quaestor.bench.load.LoadBench "$@"
