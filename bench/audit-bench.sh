#!/usr/bin/env bash
# Audit write throughput (1, 16, 64 concurrent writers) into PostgreSQL on 127.0.0.1:5432 and offline
# verification speed. Not part of `./mvnw verify`. About a minute. Argument: seconds per writer count (default 10).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$top"
./mvnw -B -q install -DskipTests
./mvnw -B -q -f bench/pom.xml compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
exec java -Xmx1g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" dev.quaestor.audit.AuditThroughputBench "$@"
