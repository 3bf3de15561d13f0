#!/usr/bin/env bash
# Does a client sending 10x its limit slow another client down? Starts one production-mode server
# (local PostgreSQL, a local signed-token issuer) and prints the quiet client's p50/p99 alone and
# beside the noisy one, measured in alternating blocks (alone, noisy, noisy, alone, ...) and pooled per
# condition. Not part of `verify`. Arguments: backend (memory|redis, default memory), seconds per
# condition (default 360: 3,600 quiet reads, so the pooled p99 is not the 12th-slowest of 1,200), seconds per
# block (default 15). About 14 minutes with the defaults.
set -euo pipefail
redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" dev.quaestor.bench.LimiterFairnessBench "$@"
