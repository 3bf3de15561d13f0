#!/usr/bin/env bash
# JMH benchmark of one policy decision at 10, 1,000 and 100,000 rules (about 3 minutes).
# Not part of `./mvnw verify`. Prints JMH's sample-time table with p0.50 and p0.99 per size.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" org.openjdk.jmh.Main PolicyDecisionBenchmark \
  -rf json -rff src/bench/target/policy-decision.json "$@"
