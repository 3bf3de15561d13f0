#!/usr/bin/env bash
# Quaestor beside quarkus-mcp-server 1.13 (src/bench-peer) in the same run: start-up to ready alternating, then
# rounds in alternating order of closed loops on each server's endpoints, with server and PostgreSQL CPU per
# 1,000 answers, the ratios and the targets. Not part of `verify`. `src/bench/peer.sh --help` for options.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
exec "$top/src/bench/run.sh" -Xmx1g -- dev.quaestor.bench.load.PeerBench "$@"
