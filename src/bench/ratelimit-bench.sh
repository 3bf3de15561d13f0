#!/usr/bin/env bash
# JMH benchmark of the latency the rate limiter adds per request, in memory and on Redis
# (redis://127.0.0.1:6379, started here if it is down). About a minute. Not part of `verify`.
# Prints JMH's sample-time table: p0.50 and p0.99 per backend, in microseconds.
set -euo pipefail
redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" org.openjdk.jmh.Main RateLimiterBenchmark \
  -rf json -rff src/bench/target/ratelimit.json "$@"
