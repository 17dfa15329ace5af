#!/bin/bash
# Instructions per token of `CadenceBenchmarks client`, by callgrind (docs/benchmarks.md, "Client CPU
# per token against a floor"): two runs that differ only in tokens per stream (50 and 150; 10 streams,
# 100 ms apart, the same 150-token floor), and the difference over the 1,100 tokens between them.
#
#   Benchmarks/callgrind/client-per-token.sh .build-release/release/CadenceBenchmarks [OUT_DIR]
set -euo pipefail
binary=$1
out=${2:-bench-out/callgrind}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# valgrind 3.19 reads neither the binary's DWARF 5 nor its sigsuspend/posix_spawn use as is.
objcopy --strip-debug "$binary" "$out/bench-nodebug"
cc -O2 -shared -fPIC -o "$out/valgrind-shim.so" "$here/valgrind-shim.c" -ldl
total() {
  LD_PRELOAD="$out/valgrind-shim.so" valgrind --tool=callgrind --callgrind-out-file="$out/t$1.out" \
    "$out/bench-nodebug" client --streams 10 --tokens "$1" --interval-ms 100 --floor-tokens 150 --json \
    > "$out/t$1.log" 2>&1
  grep 'Collected :' "$out/t$1.log" | awk '{print $4}'
}
low=$(total 50)
high=$(total 150)
echo "instructions per token: $(( (high - low) / 1100 ))  (runs of 50 and 150 tokens: $low, $high)"
