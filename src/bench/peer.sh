#!/usr/bin/env bash
# Quaestor beside quarkus-mcp-server 1.13 (src/bench-peer) in the same run: start-up to ready alternating, then
# rounds in alternating order of closed loops on each server's endpoints, with server and PostgreSQL CPU per
# 1,000 answers, the ratios and the targets. Not part of `verify`. `src/bench/peer.sh --help` for options.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The peer is not a dependency of src/bench, so run.sh's build does not make it.
[[ "${BENCH_SKIP_BUILD:-}" == 1 ]] || (cd "$top" && ./mvnw -B -q -Dquaestor.bench -pl src/bench-peer -am package -DskipTests -DskipITs)
exec "$top/src/bench/run.sh" -Xmx1g -- dev.quaestor.bench.load.PeerBench "$@"
