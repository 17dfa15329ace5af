#!/usr/bin/env bash
# Builds one libFuzzer target and runs it.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]   run for that long
#   Fuzz/run.sh TARGET --runs N [libFuzzer flags…]  run N inputs
#   Fuzz/run.sh TARGET --build                      only build
#
# TARGET is one of: sse ndjson openai-chat openai-responses anthropic gemini ollama research
# research-reply markdown markdown-work pacer keys. The build has its own scratch path (Fuzz/.build-fuzz, or
# SCRATCH); the corpus, crashes and a log of every run live in Fuzz/.work/TARGET, outside git. Seeds: see seeds.py.
# MAX_LEN (default 1024) bounds the input size; SANITIZE=none leaves AddressSanitizer out (see below).
# One fuzzer process, under nice: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")"

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
[ $# -ge 2 ] || usage
target=$1; shift
case $target in
  sse) product=FuzzSSE ;;
  ndjson) product=FuzzNDJSON ;;
  openai-chat) product=FuzzOpenAIChat ;;
  openai-responses) product=FuzzOpenAIResponses ;;
  anthropic) product=FuzzAnthropic ;;
  gemini) product=FuzzGemini ;;
  ollama) product=FuzzOllama ;;
  research) product=FuzzResearchEvents ;;
  research-reply) product=FuzzResearchReplies ;;
  markdown) product=FuzzMarkdown ;;
  markdown-work) product=FuzzMarkdownWork ;;
  pacer) product=FuzzPacer ;;
  keys) product=FuzzKeys ;;
  *) echo "unknown target '$target'" >&2; usage ;;
esac

# `--sanitize=fuzzer` makes SwiftPM link libFuzzer's main instead of the target's own; the -Xswiftc
# flag instruments every Swift module for coverage and AddressSanitizer. Both are needed: swiftc keeps
# only the last -sanitize= flag, so `--sanitize=fuzzer --sanitize=address` would drop the coverage.
# SANITIZE=none builds without AddressSanitizer (its own scratch path), about 2.5 times as fast: Swift
# still traps on every out-of-bounds index and overflow, and ASan only adds checks in the modules'
# few `Unsafe…` regions (the SSE byte scanner, the JSON text parser), which the `sse` and `research`
# targets cover with ASan on.
case ${SANITIZE:-address} in
  address) sanitizers=fuzzer,address scratch=.build-fuzz ;;
  none) sanitizers=fuzzer scratch=.build-fuzz-noasan ;;
  *) echo "SANITIZE must be address or none" >&2; exit 64 ;;
esac
scratch=${SCRATCH:-$scratch}
# SwiftPM keeps the plan of a build (these two files) and does not see a source file added to or
# removed from the root package, which this package reaches as a path dependency: the build then
# compiles the old list of files. Planning again costs a few seconds.
rm -f "$scratch/release.yaml" "$scratch/release/description.json"
# A failed build stops here: fuzzing the binary an earlier build left would test old code.
nice swift build --scratch-path "$scratch" -c release --sanitize=fuzzer -Xswiftc -sanitize="$sanitizers" \
  --product "$product" 2>&1 | { grep -v -E "Cannot export local symbol|distributed-tracing|CMakeLists.txt" >&2 || true; }
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "the build of $product failed" >&2; exit 1; }
binary=$scratch/release/$product

work=.work/$target
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
[ -n "$(ls -A "$work/seeds")" ] || python3 seeds.py "$target" "$work/seeds"

case ${1:-} in
  --build) exit 0 ;;
  --runs) [ $# -ge 2 ] || usage; limit=(-runs="$2"); shift 2 ;;
  *) limit=(-max_total_time="$1"); shift ;;
esac
max_len=${MAX_LEN:-1024}

log=$work/last-run.log
started=$(date +%s)
# A failed oracle calls fatalError: let it trap at once for libFuzzer, without Swift's backtracer.
export SWIFT_BACKTRACE=enable=no
# Allocation stacks are what make AddressSanitizer slow on Swift code, which allocates a lot.
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:detect_leaks=0}
set +e
nice "$binary" "${limit[@]}" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$work/seeds" 2>&1 | tee "$log" \
  | grep -E "^#[0-9]+ +(pulse|DONE)|ERROR|SUMMARY|Fatal error|Test unit written"
status=${PIPESTATUS[0]}
set -e
seconds=$(( $(date +%s) - started ))
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
corpus=$(ls "$work/corpus" | wc -l)
crashes=$(ls "$work/artifacts" | wc -l)
echo "$(date -u +%FT%TZ) target=$target runs=${runs:-?} exec_per_sec=${rate:-?} seconds=$seconds max_len=$max_len sanitize=${SANITIZE:-address} corpus=$corpus artifacts=$crashes status=$status" \
  | tee -a "$work/runs.log"
total=$(sed -n 's/.* runs=\([0-9]*\) .*/\1/p' "$work/runs.log" | awk '{ n += $1 } END { print n }')
echo "executions: ${runs:-?} ($target, all runs in runs.log: $total)"
exit "$status"
