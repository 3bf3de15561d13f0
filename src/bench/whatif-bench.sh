#!/usr/bin/env bash
# Policy what-if over a month of recorded decisions (about a minute; not part of `./mvnw verify`): RECORDS synthetic
# requests (default 1,000,000) against the sample policies, grouped into a facts export, then read and replayed
# three times through the samples and deploy/examples/what-if/clinical-trials.yaml, each fact also checked under its
# recorded revision. Prints records, distinct facts and seconds per run (target: under 10 s on 2 cores), and fails if
# a replayed decision differs from the recorded one. Usage: src/bench/whatif-bench.sh [RECORDS]
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$top"
exec "$top/src/bench/run.sh" -Xmx2g -- dev.quaestor.bench.WhatIfBench "${1:-1000000}"
