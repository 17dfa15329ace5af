#!/usr/bin/env bash
# Adds up every run of every target from Fuzz/.work/TARGET/runs.log, as the table in
# docs/benchmarks.md shows it: executions (and how many of them with AddressSanitizer), runs, seconds,
# executions per second over all those seconds, the max_len values used, and the corpus size now.
# Runs logged before SANITIZE existed were all built with AddressSanitizer.
cd "$(dirname "$0")/.work" 2>/dev/null || { echo "no Fuzz/.work yet: run Fuzz/run.sh first" >&2; exit 1; }
echo "| Target | executions | with ASan | runs | seconds | exec/s | max_len | corpus |"
echo "|---|---|---|---|---|---|---|---|"
for t in sse ndjson openai-chat openai-responses anthropic gemini ollama research markdown pacer keys; do
  [ -f "$t/runs.log" ] || { echo "| \`$t\` | 0 | 0 | 0 | 0 | 0 | | 0 |"; continue; }
  awk -v t="$t" '
    { delete v; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      runs += v["runs"]; secs += v["seconds"]; n++; lens[v["max_len"]] = 1; corpus = v["corpus"]
      if (v["sanitize"] != "none") asan += v["runs"] }
    END { ml = ""; for (l in lens) ml = ml (ml == "" ? "" : ", ") l
          printf "| `%s` | %\047d | %\047d | %d | %\047d | %\047d | %s | %\047d |\n", t, runs, asan, n, secs, (secs > 0 ? runs / secs : 0), ml, corpus }
  ' "$t/runs.log"
done
