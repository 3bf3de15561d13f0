#!/usr/bin/env bash
# Reads a large binary file (default 512 MiB) over MCP resources/read from the packaged server in prod mode
# (local PostgreSQL, a local signed-token issuer, -Xmx256m) with a streaming client, and compares with curl
# downloading the same file from the server's GET /baseline/{path}. Prints throughput, the curl/MCP ratio
# (target <= 2x) and the server's heap growth during the reads (target < 64 MiB). Not part of `verify`.
# Arguments: MiB (default 512), measured runs (default 3). The file is written once under target/large-read/.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" dev.quaestor.bench.LargeReadBench "$@"
