#!/usr/bin/env bash
# End-to-end test: builds the Wails dev binary and drives its UI with headless
# Chromium (see e2e/inventory.e2e.mjs). Expects frontend/dist to be built
# (make e2e does that first). Exits non-zero on failure; the node script
# always stops the app and Xvfb it started.
set -euo pipefail
cd "$(dirname "$0")/.."

for cmd in go node Xvfb; do
  command -v "$cmd" >/dev/null || { echo "e2e: $cmd not found; run ./scripts/bootstrap.sh" >&2; exit 1; }
done
[[ -f frontend/dist/index.html ]] || { echo "e2e: frontend/dist missing; run make frontend" >&2; exit 1; }

mkdir -p build/bin
start=$(date +%s)
echo "e2e: go build -tags dev,webkit2_41 -o build/bin/warren-dev ."
go build -tags dev,webkit2_41 -o build/bin/warren-dev .
echo "e2e: built in $(( $(date +%s) - start )) s"

exec node e2e/inventory.e2e.mjs
