#!/usr/bin/env bash
# JMH benchmark of one policy decision at 10, 1,000 and 100,000 rules (about 1.5 minutes).
# Not part of `./mvnw verify`. Prints JMH's sample-time table with p0.50 and p0.99 per size.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./mvnw -B -q install -DskipTests
./mvnw -B -q -f bench/pom.xml compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
exec java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" org.openjdk.jmh.Main PolicyDecisionBenchmark \
  -rf json -rff bench/target/policy-decision.json "$@"
