#!/usr/bin/env bash
# Runs every Go benchmark in the module and writes docs/benchmarks.md: the
# date, the machine, the exact command and the raw `go test -bench` output
# (benchstat can read that section back). The raw output is also left in
# ${BENCH_OUT:-/tmp/bench.txt}.
# Usage: ./scripts/bench.sh [extra go test flags, e.g. -count=5 or -benchtime=2s]
# WARREN_BENCH_LARGE=1 adds the 100,000-vector / 100,000-chunk sizes of the
# memory benchmarks (BenchmarkVectorIndex, BenchmarkHybridSearch): about
# 20-30 more minutes on 2 cores. The default run measures 10,000.
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
  echo "## Targets"
  echo
  echo "| target | measured | goal |"
  echo "|---|---|---|"
  awk '
    /^BenchmarkRegistryOverhead/ { for (i = 1; i < NF; i++) if ($(i+1) == "%-of-1ms-tool") printf "| registry pipeline overhead around a no-op tool | %s %% of a 1 ms tool | under 2 %% |\n", $i }
    /^BenchmarkLoopIteration/ { for (i = 1; i < NF; i++) if ($(i+1) == "µs/iteration") printf "| agent loop overhead per iteration, 50 tools, excluding model time | %s µs | under 1000 µs |\n", $i }
    /^BenchmarkScrub1MB-/ { for (i = 1; i < NF; i++) if ($(i+1) == "MB/s") printf "| scrubber throughput, 1 MB mixed text | %s MB/s | (no goal; > 20 MB/s wanted) |\n", $i }
    /^BenchmarkBridgeOverhead/ { for (i = 1; i < NF; i++) { if ($(i+1) == "%-over-raw") over = $i; if ($(i+1) == "µs-raw-p50") mraw = $i; if ($(i+1) == "µs-bridged-p50") mbr = $i }
      printf "| MCP bridge overhead vs a raw mcp-go stdio call (echo, p50) | %s %% (%s µs vs %s µs) | at most 10 %% |\n", over, mbr, mraw }
    /^BenchmarkHybridSearch\// { split($1, nm, "/"); sub(/-[0-9]+$/, "", nm[3]); delete m; for (i = 1; i < NF; i++) m[$(i+1)] = $i
      printf "| memory hybrid query p50, %s chunks, %s (HNSW index) | %s ms (recall@10 %s against the hybrid query on the exact scan, which takes %s ms) | at most 3 ms, recall ≥ 0.95 |\n", nm[2], nm[3], m["ms-hybrid-p50"], m["hybrid-recall@10"], m["ms-hybrid-exact-p50"] }
    /^BenchmarkDeadServer/ { for (i = 1; i < NF; i++) { if ($(i+1) == "ms-to-detect") det = $i; if ($(i+1) == "ms-to-reconnect") rec = $i }
      printf "| killed MCP stdio server: noticed / connected again (2 s first backoff) | %s ms / %s ms | noticed within 1000 ms |\n", det, rec }
    /^BenchmarkSandboxedMCPStart\/host/ { mhost = $3 }
    /^BenchmarkSandboxedMCPStart\/sandboxed/ { msb = $3 }
    /^BenchmarkExec\/host\/echo/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) host = $i }
    /^BenchmarkExec\/warm\/echo/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) warm = $i }
    /^BenchmarkExec\/podman-exec/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) pexec = $i }
    /^BenchmarkExec\/cold/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) cold = $i }
    /^BenchmarkExec\/host\/ls/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) hostls = $i }
    /^BenchmarkExec\/host-script\/ls/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) scriptls = $i }
    /^BenchmarkExec\/warm-script\/ls/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /p50/) warmls = $i }
    /^BenchmarkClaim/ { for (i = 1; i < NF; i++) if ($(i+1) == "claims/s") printf "| team board: task claims per second, 8 concurrent claimers (one immediate transaction each) | %s | (reported) |\n", $i }
    /^BenchmarkCompleteToDispatch/ { for (i = 1; i < NF; i++) if ($(i+1) == "ms/dispatch") printf "| team: complete to the dependent member'"'"'s first model request, excluding model time | %s ms | under 50 ms |\n", $i }
    /^BenchmarkBuiltinEmbed/ { for (i = 1; i < NF; i++) if ($(i+1) == "chunks/s") printf "| builtin embedder: ~400-token chunks embedded per second, one goroutine | %s | (reported) |\n", $i }
    /^BenchmarkBuiltinLoad/ { for (i = 1; i < NF; i++) if ($(i+1) == "heap-MB") printf "| builtin embedder: first-use load (index 100,000 words) | %.1f ms, %s MB heap | (reported) |\n", $3 / 1e6, $i }
    /^BenchmarkListBoard\/page50-priority/ { printf "| team board: list the first 50 tasks by priority at 10,000 tasks | %.2f ms | (reported) |\n", $3 / 1e6 }
    END {
      if (hostls != "" && scriptls != "") printf "| host exec through Warren'"'"'s interpreter (each command judged) vs sh -c, p50 (ls) | %.2fx (%s µs vs %s µs) | at most 1x |\n", scriptls / hostls, scriptls, hostls
      if (scriptls != "" && warmls != "") printf "| warm sandboxed script vs the same on the host, p50 (ls) | %.2fx (%s µs vs %s µs) | at most 2x |\n", warmls / scriptls, warmls, scriptls
      if (host != "" && warm != "") printf "| warm sandboxed exec p50 vs host sh -c (echo hi) | %.2fx (%s µs vs %s µs) | at most 5x |\n", warm / host, warm, host
      if (warm != "" && pexec != "") printf "| podman exec p50 vs warm sandboxed exec | %.0fx slower (%s µs vs %s µs) | at least 10x |\n", pexec / warm, pexec, warm
      if (mhost != "" && msb != "") printf "| MCP server-everything start (spawn + initialize + tools/list): host / sandboxed | %.0f ms / %.0f ms | (reported) |\n", mhost / 1e6, msb / 1e6
      if (cold != "") printf "| cold start (create + start + first exec) p50 | %s µs | (reported) |\n", cold
    }' "$out"
  echo
  echo "No process or memory growth over 10,000 warm execs is checked by"
  echo "\`TestWarmExecNoGrowth\` in sandbox/podman (run by \`make test\`)."
  echo
  # The vector index (backend/memory/ann, issue 13): one row per index and set.
  awk '
    /^BenchmarkVectorIndex\// {
      if (!head) {
        print "## Vector index"
        print ""
        print "In-process HNSW (backend/memory/ann, defaults M 16, EfConstruction 100, EfSearch 64) vs the exact"
        print "Flat scan, k = 10, 200 queries from the same distribution; clustered = a mixture of 300 Gaussian"
        print "centres, normalised; uniform = uniform on the sphere (the hardest case). filter10% keeps one id in ten."
        print "Build uses both cores; B/vec is the heap the index holds, file-B/vec the Save file, load the Load time."
        print ""
        print "| vectors | dims | data | index | recall@10 | p50 µs | p95 µs | build s | B/vec | file B/vec | load ms |"
        print "|---|---|---|---|---|---|---|---|---|---|---|"
        head = 1
      }
      name = $1; sub(/-[0-9]+$/, "", name); split(name, p, "/")
      delete m
      for (i = 3; i < NF; i++) m[$(i+1)] = $i
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", substr(p[2], 3), substr(p[3], 3), p[4], p[5],
        m["recall@10"], m["p50-µs"], m["p95-µs"], m["build-s"], m["B/vec"], m["file-B/vec"], m["load-ms"]
    }
    END { if (head) print "" }' "$out"
  # Memory search (backend/memory, issue 13 §3): one row per size and dims.
  awk '
    /^BenchmarkHybridSearch\// {
      if (!head) {
        print "## Memory search"
        print ""
        print "BenchmarkHybridSearch (backend/memory): notes of 40 words drawn from the word frequencies of Warren'"'"'s docs,"
        print "one chunk each, one agent; 200 queries of 3 distinct non-stopwords from the same distribution; 100 d = the"
        print "shipped builtin embedder, 384 d = its vectors through a fixed random 384×100 projection plus 5% noise."
        print "exact = the vector channel on sqlite-vec'"'"'s scan; hnsw = the vector channel on the in-process index (recall@10"
        print "against exact); keyword = the keyword channel alone (the in-process BM25 index a running Warren keeps);"
        print "hybrid = both channels fused, on the index (recall@10 against the hybrid query on the exact scan)."
        print "Indexing = embedding + embedding cache + vec0 writes of every chunk (IndexNow), with the heap (in use) and"
        print "RSS sampled every 50 ms (RSS includes the database pages SQLite maps); build = the HNSW build from SQLite at"
        print "start; heap = what it holds; kw build/heap = the keyword index built from SQLite and the heap it holds."
        print ""
        print "| chunks | dims | exact p50/p95 ms | hnsw p50/p95 ms | recall@10 | keyword p50/p95 ms | hybrid p50/p95 ms | hybrid recall@10 | hybrid on exact p50 ms | indexing chunks/s | heap start → peak MB | RSS peak MB | build s | index heap MB | kw build s | kw heap MB |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        head = 1
      }
      name = $1; sub(/-[0-9]+$/, "", name); split(name, p, "/")
      delete m
      for (i = 3; i < NF; i++) m[$(i+1)] = $i
      printf "| %s | %s | %s / %s | %s / %s | %s | %s / %s | %s / %s | %s | %s | %.0f | %s → %s | %s | %s | %s | %s | %s |\n", p[2], p[3],
        m["ms-exact-p50"], m["ms-exact-p95"], m["ms-hnsw-p50"], m["ms-hnsw-p95"], m["recall@10"], m["ms-keyword-p50"], m["ms-keyword-p95"],
        m["ms-hybrid-p50"], m["ms-hybrid-p95"], m["hybrid-recall@10"], m["ms-hybrid-exact-p50"], m["index-chunks/s"],
        m["index-heap-start-MB"], m["index-heap-peak-MB"], m["index-rss-peak-MB"], m["ann-build-s"], m["ann-heap-MB"],
        m["kw-build-s"], m["kw-heap-MB"]
    }
    END { if (head) print "" }' "$out"
  echo "## Raw output"
  echo
  echo '```'
  cat "$out"
  echo '```'
} >"$doc"
echo "bench: wrote $doc (raw output in $out)"
