#!/usr/bin/env bash
# quaestor-verify's speed (not part of `./mvnw verify`; a few minutes): a synthetic export of RECORDS records (default
# 1,000,000; a checkpoint every 1,000), without time-stamps and with every checkpoint time-stamped by OpenSSL's TSA,
# verified three times warm in one JVM (target >= 500,000 records/s), then three times each cold, as an auditor runs
# it: java -jar src/verifier/target/quaestor-verify.jar verify. Needs openssl (openssl ts).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
records=${1:-1000000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$top/src/bench/run.sh" -Xmx1g -Djava.util.logging.manager=org.jboss.logmanager.LogManager -- dev.quaestor.bench.audit.VerifyBench "$dir" "$records"
jar="$top/src/verifier/target/quaestor-verify.jar"
for export in plain anchored; do
  tsa=()
  [[ $export == anchored ]] && tsa=(--tsa-ca "$dir/tsa-root.pem")
  for run in 1 2 3; do
    sync
    start=$(date +%s.%N)
    line=$(java -jar "$jar" verify "$dir/$export.jsonl" --trust "$dir/audit.vkey" "${tsa[@]}" | grep '^VERIFIED')
    end=$(date +%s.%N)
    echo "cold java -jar, $export, run $run: $line; wall $(echo "$end - $start" | bc) s with JVM start"
  done
done
