#!/usr/bin/env bash
# Runs every Go benchmark in the module and writes docs/benchmarks.md: the
# date, the machine, the exact command and the raw `go test -bench` output
# (benchstat can read that section back). The raw output is also left in
# ${BENCH_OUT:-/tmp/bench.txt}.
# Usage: ./scripts/bench.sh [extra go test flags, e.g. -count=5 or -benchtime=2s]
set -euo pipefail
cd "$(dirname "$0")/.."

out=${BENCH_OUT:-/tmp/bench.txt}
doc=docs/benchmarks.md
cmd=(go test -run='^$' -bench=. -benchmem "$@" ./...)

shown="go test -run='^\$' -bench=. -benchmem${*:+ $*} ./..."
echo "bench: $shown"
start=$(date +%s)
"${cmd[@]}" | tee "$out"
secs=$(($(date +%s) - start))

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo 2>/dev/null || true)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -qv '^??' && echo " (with uncommitted changes)" || true)

mkdir -p docs
{
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` (scripts/bench.sh); rerun it to refresh this file."
  echo "Numbers are from one run on the machine below: compare runs on the same machine"
  echo "(e.g. with benchstat and \`./scripts/bench.sh -count=10\`), not across machines."
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| Date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
  echo "| Commit | ${commit}${dirty} |"
  echo "| Go | $(go env GOVERSION) $(go env GOOS)/$(go env GOARCH) |"
  echo "| CPU | ${cpu:-unknown} |"
  echo "| Cores (nproc) | $(nproc) |"
  echo "| Memory | ${mem:-unknown} |"
  echo "| Kernel | $(uname -sr) |"
  echo "| Wall time | ${secs} s |"
  echo
  echo "Command:"
  echo
  echo '```sh'
  echo "$shown"
  echo '```'
  echo
  echo "## Raw output"
  echo
  echo '```'
  cat "$out"
  echo '```'
} >"$doc"
echo "bench: wrote $doc (raw output in $out)"
