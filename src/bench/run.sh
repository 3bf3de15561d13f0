#!/usr/bin/env bash
# Builds the server and the benchmarks in one reactor (this checkout's classes, nothing installed into ~/.m2,
# so checkouts side by side cannot pick up each other's builds), then runs a main class of src/bench/ with its
# class path. Usage: src/bench/run.sh [JVM options --] MAIN-CLASS [ARGS...]
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$top"
# BENCH_SKIP_BUILD=1 reuses the last build (e.g. to keep a start-up archive that matches its jars).
[[ "${BENCH_SKIP_BUILD:-}" == 1 ]] || ./mvnw -B -q -Dquaestor.bench -pl src/bench -am package -DskipTests -DskipITs
jvm=()
if [[ " $* " == *" -- "* ]]; then
  while [[ $1 != "--" ]]; do jvm+=("$1"); shift; done
  shift
fi
exec java "${jvm[@]}" -cp "src/bench/target/classes:$(cat src/bench/target/classpath.txt)" "$@"
