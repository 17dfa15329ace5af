#!/usr/bin/env python3
"""The CI pacing gate: `cadence pace` on a few traces, scored by the pacing lab's `targets`.

    python3 Benchmarks/pacing_gate.py --cadence .build/debug/cadence [--lab ../shared/pacing]

Traces: the public `fast-1200cps`, and from held-out seed 3 `cjk-emoji` and `markdown-code`,
each at 60 and 120 Hz, in word mode with `--strict` (no grapheme cluster split). A failed target
fails the gate unless no pacer that keeps the same units whole can meet it, which the gate
checks rather than assumes:
- on `cjk-emoji`, `partWord%` counts every cut inside a run of CJK text, which is how that text
  must be shown (METRICS.md: judge integrity there by partGraph%, which `--strict` enforces);
- a target the lab's own `oracle` pacer (whole words and code lines, knowing the whole text)
  also fails on that trace, such as `frozen%` on `markdown-code`, where a 20-line code block
  arriving over seconds can only appear a whole line at a time.
Exit 0 if every other target passes, else 1.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FAIL = re.compile(r"^\s+FAIL\s+(.*?)\s+measured (\S+)", re.M)


def failed(lab: Path, trace: Path, frames: Path, hz: str) -> dict[str, str]:
    out = subprocess.run([sys.executable, str(lab / "pacing_lab.py"), "targets", "--trace", str(trace),
                          "--frames", str(frames), "--hz", hz, "--mode", "word", "--strict"],
                         capture_output=True, text=True)
    if out.returncode == 2:
        sys.exit(f"invalid timeline for {trace.name}: {out.stderr}")
    return {m.group(1).split(" <=")[0].split(" (")[0]: f"{m.group(1)} = {m.group(2)}" for m in FAIL.finditer(out.stdout)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cadence", required=True, help="the built cadence binary")
    ap.add_argument("--lab", default=str(REPO.parent / "shared" / "pacing"), help="pacing lab folder")
    args = ap.parse_args()
    lab = Path(args.lab)
    work = Path(tempfile.mkdtemp(prefix="cadence-gate-"))
    subprocess.run([sys.executable, str(lab / "pacing_lab.py"), "export-traces", "--holdout", "--seed", "3",
                    "--out", str(work)], check=True, capture_output=True)
    traces = [lab / "traces-public" / "fast-1200cps.json", work / "cjk-emoji-seed3.json",
              work / "markdown-code-seed3.json"]
    bad = 0
    for trace in traces:
        for hz in ("60", "120"):
            ours, oracle = work / "ours.json", work / "oracle.json"
            with open(ours, "w") as f:
                subprocess.run([args.cadence, "pace", "--trace", str(trace), "--hz", hz], check=True, stdout=f)
            subprocess.run([sys.executable, str(lab / "pacing_lab.py"), "pacer-frames", "--trace", str(trace),
                            "--pacer", "oracle", "--hz", hz, "--out", str(oracle)], check=True, capture_output=True)
            mine, bound = failed(lab, trace, ours, hz), failed(lab, trace, oracle, hz)
            excused = {k: "the oracle fails it too" for k in mine if k in bound}
            if trace.name.startswith("cjk") and "partWord%" in mine:
                excused["partWord%"] = "CJK runs count as one word; --strict checks clusters"
            real = [v for k, v in mine.items() if k not in excused]
            notes = "; ".join(f"{mine[k]} ({why})" for k, why in excused.items())
            print(f"{'PASS' if not real else 'FAIL'}  {trace.stem} at {hz} Hz"
                  + (f": {'; '.join(real)}" if real else "") + (f"  [excused: {notes}]" if notes else ""))
            bad += bool(real)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
