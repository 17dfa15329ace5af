#!/usr/bin/env python3
"""A lower bound on frozen% for ANY pacer, even one that knows the whole trace in advance, that keeps
words, code lines and grapheme clusters whole (the cuts of the lab's `oracle`) and meets the lab's
latency max, latency p95 and stall% targets on the trace, finishing within 150 ms of its end.

    python3 Benchmarks/pacing_bound.py --type markdown-code --seeds 1 20 --hz 60 120

Where the bound is above the frozen% target, no such pacer can meet every target on that trace.

Method: a schedule is the frame at which each allowed cut becomes visible. frozen%, the number of
characters later than the p95 target P, and stall time are sums over consecutive changes, so for
multipliers λ, μ ≥ 0 an exact dynamic program over (frame, cut) finds
    D(λ, μ) = min over schedules of  frozen_ms + λ · late_chars + μ · stall_ms
with the latency max target as a hard constraint. Every schedule that meets the targets has
late_chars ≤ Q (nearest-rank p95) and stall_ms ≤ S (3 % of the longest possible window), so its
frozen time is at least D(λ, μ) − λQ − μS (Lagrangian relaxation). The bound divides by the longest
possible window, which only makes it smaller. Requires numpy.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
from pathlib import Path

import numpy as np

import pacing_common as common


class FrozenBound:
    """The dynamic program for one trace at one refresh rate."""

    def __init__(self, lab, trace, hz: float):
        self.lab, self.trace = lab, trace
        text, n = trace.text, len(trace.text)
        T = self.T = 1000.0 / hz
        kind = lab.trace_type(trace.name)
        oracle = self.oracle = lab.simulate(trace, lab.Oracle(text, "word", strict=True), hz)
        cv_target, stall_target, frozen_target, p95_target, max_target = lab.TARGETS[kind]
        # The lab's own relaxations (METRICS.md, "Targets").
        self.P = max(p95_target, oracle["p95"] + T)
        self.M = max(max_target, oracle["lmax"] + T)
        no_room = oracle["p95"] + lab.FROZEN_MS > p95_target + lab.EPS
        self.frozen_target = max(frozen_target, oracle["frz"]) if no_room else frozen_target
        self.Q = n - math.ceil(0.95 * n)
        cut = lab.Oracle(text, "word", strict=True)
        b = self.b = np.array([0] + [v for v in range(1, n + 1) if cut._whole(v)])
        self.J = len(b) - 1
        arrival = []
        for t, chunk in trace.arrivals:
            arrival += [t] * len(chunk)
        self.arrival = np.array(arrival)
        self.K = int(math.floor((trace.t_end + 150.0) / T + 1e-9))
        self.times = np.arange(self.K + 1) * T
        received = np.searchsorted(self.arrival, self.times, side="right")
        self.available = np.searchsorted(received, b, side="left")  # first frame each cut is received
        self.first_arrival = np.append(self.arrival, np.inf)[b]      # arrival of the first char after each cut
        self.G = max(g for g in range(1, 100) if g * T < lab.FROZEN_MS)   # longest gap (frames) not frozen
        self.GS = min(g for g in range(1, 100) if g * T >= 50.0)          # shortest gap counted as a stall
        # A complete unit pending after cut j: the first whitespace (or LF in code) after it received.
        spans = lab.code_regions(text)
        unit_end = np.full(self.J + 1, n + 10)
        for j, v in enumerate(b):
            if v >= n:
                continue
            if lab.in_spans(v, spans) and (v == 0 or text[v - 1] == "\n"):
                nl = text.find("\n", v)
                unit_end[j] = nl + 1 if nl != -1 else n + 10
            else:
                found = [i for i in (text.find(c, v) for c in " \t\n\r") if i != -1]
                unit_end[j] = min(found) + 1 if found else n + 10
        ended = (self.times >= trace.t_end) & (self.times >= trace.arrivals[-1][0])
        self.pending = [(unit_end <= received[k]) | (ended[k] & (b < received[k])) for k in range(self.K + 1)]
        self.pending.append(np.zeros(self.J + 1, dtype=bool))
        self.window = trace.t_end + 150.0 - trace.arrivals[0][0] + T
        self.S = 0.03 * self.window

    def solve(self, lam: float, mu: float) -> float:
        """D(λ, μ): the least frozen_ms + λ·late_chars + μ·stall_ms over all schedules."""
        J, K, T, G, GS, b, times = self.J, self.K, self.T, self.G, self.GS, self.b, self.times
        inf = 1e18
        f = np.full((K + 1, J + 1), inf)  # f[k][j]: the last change, at frame k, shows cut j
        h0 = np.full(J + 1, inf)  # min over earlier frames (gap frozen, no stall) of f − t
        h1 = np.full(J + 1, inf)  # the same when the gap is also a stall: f − (1 + μ)t
        c1 = 1.0 + mu
        for k in range(K + 1):
            t = times[k]
            kk = k - G - 1
            if kk >= 0:
                stall = self.pending[kk + 1]
                h0 = np.where(~stall, np.minimum(h0, f[kk] - times[kk]), h0)
                h1 = np.where(stall, np.minimum(h1, f[kk] - c1 * times[kk]), h1)
            base = np.minimum(h0 + t, h1 + c1 * t)
            for g in range(1, G + 1):
                if k - g >= 0:
                    cost = f[k - g]
                    if g >= GS and mu > 0:
                        cost = cost + np.where(self.pending[k - g + 1], mu * g * T, 0.0)
                    base = np.minimum(base, cost)
            base[0] = 0.0  # the first change has no gap before it
            base = np.where(t - self.first_arrival <= self.M + 1e-9, base, inf)  # latency max, hard
            late_before = np.searchsorted(self.arrival, t - self.P, side="left")  # chars later than P now
            a = np.where(b < late_before, base - lam * b, inf)
            c = np.where(b >= late_before, base, inf)
            ma, mc = np.minimum.accumulate(a), np.minimum.accumulate(c)
            step = np.full(J + 1, inf)
            step[1:] = np.minimum(ma[:-1] + lam * np.minimum(b[1:], late_before), mc[:-1])
            step = np.where(self.available <= k, step, inf)
            step[0] = inf
            f[k] = step
        return float(f[:, J].min())

    def bound(self, lambdas=(0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0), mus=(0.0, 0.25, 0.5, 1.0, 2.0)):
        """(frozen% lower bound, (λ, μ) that gives it)."""
        best = (-math.inf, (0.0, 0.0))
        for lam in lambdas:
            for mu in mus:
                d = self.solve(lam, mu)
                if d >= 1e17:
                    return math.inf, (lam, mu)  # not even the latency max target can be met
                value = 100.0 * (d - lam * self.Q - mu * self.S) / self.window
                if value > best[0]:
                    best = (value, (lam, mu))
        return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lab", default=str(common.DEFAULT_LAB))
    ap.add_argument("--type", default="markdown-code")
    ap.add_argument("--seeds", type=int, nargs=2, default=[1, 20], metavar=("FIRST", "LAST"))
    ap.add_argument("--hz", nargs="*", type=float, default=[60.0, 120.0])
    args = ap.parse_args()
    lab = common.load_lab(args.lab)
    work = Path(tempfile.mkdtemp(prefix="cadence-bound-"))
    print("| seed | Hz | frozen% target | oracle's frozen% | lower bound for any whole-unit pacer | (λ, μ) |")
    print("|---|---|---|---|---|---|")
    for seed in range(args.seeds[0], args.seeds[1] + 1):
        common.export_holdout(args.lab, seed, work)
        trace = lab.load_trace(str(work / f"{args.type}-seed{seed}.json"))
        for hz in args.hz:
            problem = FrozenBound(lab, trace, hz)
            value, (lam, mu) = problem.bound()
            print(f"| {seed} | {hz:g} | {problem.frozen_target:.1f} | {problem.oracle['frz']:.1f} | {value:.1f} "
                  f"| ({lam:g}, {mu:g}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
