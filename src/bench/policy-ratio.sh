#!/usr/bin/env bash
# The policy decision benchmark's 100,000-rule / 10-rule p99 ratio (target: within 3x), measured
# in interleaved ABBA pairs of JMH runs so that the machine's drift falls on both sizes alike; prints
# every run's p50/p90/p99, the ratio of each pair and their median. Not part of `./mvnw verify`.
# Usage: src/bench/policy-ratio.sh [PAIRS]   (default 4, about 50 s per pair)
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" dev.quaestor.bench.PolicyRatioBench "$@"
