#!/usr/bin/env bash
# Instructions and simulated cache misses per policy decision, which unlike timings do not depend on
# what else the machine is running. Runs PolicyDecisionProbe (the JMH benchmark's workload) under
# cachegrind twice after the same warm-up, once with MEASURED/5 and once with MEASURED decisions, and
# prints the difference per decision; compilation is synchronous (-Xbatch), so both runs compile the
# same code at the same points and start-up, building and compiling cancel out. The simulated last-level cache is 1 MiB (the size of one core's L2 on
# the reference machine), so "LL misses" counts reads that would have to leave the core.
# Usage: src/bench/policy-cachegrind.sh [RULES [MEASURED [WARMUP]]]   (about 10 minutes at 100,000 rules)
set -euo pipefail
rules="${1:-100000}"; measured="${2:-500000}"; warmup="${3:-200000}"
few=$((measured / 5))
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$top"
./mvnw -B -q -Dquaestor.bench -pl src/bench -am package -DskipTests -DskipITs
cp="src/bench/target/classes:$(cat src/bench/target/classpath.txt)"
out=src/bench/target/cachegrind
mkdir -p "$out"
for n in "$few" "$measured"; do
  valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --cachegrind-out-file="$out/policy-$rules-$n.out" \
    java -Xbatch -XX:+UseSerialGC -Xms1g -Xmx1g -Xmn600m -cp "$cp" dev.quaestor.bench.PolicyDecisionProbe "$rules" "$warmup" "$n" \
    > "$out/policy-$rules-$n.log" 2>&1
done
python3 - "$out/policy-$rules-$few.out" "$out/policy-$rules-$measured.out" "$((measured - few))" "$rules" <<'PY'
import sys
def read(path):
    events = summary = None
    for line in open(path):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(x) for x in line.split()[1:]]
    return dict(zip(events, summary))
base, run, n = read(sys.argv[1]), read(sys.argv[2]), int(sys.argv[3])
per = {k: (run[k] - base[k]) / n for k in run}
print(f"{sys.argv[4]} rules, per decision (difference of {n} decisions):")
print(f"  instructions {per['Ir']:.0f}, data reads {per['Dr']:.0f}, D1 read misses {per['D1mr']:.1f}, "
      f"LL (1 MiB) read misses {per['DLmr']:.2f}, all D1 misses {per['D1mr'] + per['D1mw']:.1f}")
PY
