#!/usr/bin/env bash
# Regenerates the compliance console's screenshots in docs/screenshots/ (linked from the README): runs the test
# server with the test OIDC issuer and PostgreSQL (as ./mvnw verify does), makes some traffic, signs in as auditor in
# Debian's headless Chromium (apt-get install chromium chromium-driver) and saves one PNG per main page; the cases
# pages come from the case story's browser test (two officers), the archived-month pages from the retention test.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/docs/screenshots"
mkdir -p "$out"
./mvnw -B -q -pl src/server -am verify -DskipITs -Dsurefire.failIfNoSpecifiedTests=false -Dtest='ConsoleScreenshots,CaseStoryBrowserTest,RetentionJobTest' \
  -Dquaestor.screenshots="$out"
ls -l "$out"/*.png
