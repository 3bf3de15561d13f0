#!/usr/bin/env bash
# Policy what-if over a month of recorded decisions (a few minutes; not part of `./mvnw verify`): RECORDS synthetic
# requests (default 1,000,000) against the sample policies, grouped into a facts export, replayed three times warm in
# one JVM through the samples and deploy/examples/what-if/clinical-trials.yaml (each fact also checked under its
# recorded revision; fails on a mismatch), then the command itself three times, each in a fresh JVM as CI runs it:
# `policy what-if PROPOSED --current policies --facts FILE`, with the JVM flags scripts/policy gives it (target: under
# 10 s on 2 cores).
# Usage: src/bench/whatif-bench.sh [RECORDS]
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$top"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$top/src/bench/run.sh" -Xmx2g -- dev.quaestor.bench.WhatIfBench "${1:-1000000}" "$dir/facts.jsonl" "$dir/proposed"
cp="src/bench/target/classes:$(cat src/bench/target/classpath.txt)"
for run in 1 2 3; do
  /usr/bin/time -f "cold run $run: %e s wall, %U s user + %S s system CPU, %M KiB peak RSS (load: $(cut -d' ' -f1 /proc/loadavg))" \
    java -XX:TieredStopAtLevel=1 -XX:+UseParallelGC -cp "$cp" dev.quaestor.cli.WhatIfCommand what-if "$dir/proposed" --current policies --facts "$dir/facts.jsonl" \
    > "$dir/out.txt" 2> "$dir/time.txt" || { cat "$dir/time.txt"; exit 1; }
  sed -n '2p;/^recorded decisions replayed/p' "$dir/out.txt"
  tail -1 "$dir/time.txt"
done
