#!/usr/bin/env python3
"""Differential test of Cadence's markdown against cmark-gfm and markdown-it-py on generated documents.

    python3 Fuzz/differential/run.py --cadence .build/debug/cadence --documents 100000 [--seed 1]

Each batch of generated documents (`generate.py`) is rendered by Cadence twice, whole and fed at a
chunk size drawn per batch, and by both references (`render.py`); the results are compared in
canonical HTML. Cadence whole ≠ Cadence chunked is always a failure. cmark-gfm's output first goes
through the rewritings of its known departures (`triage.py`); then a document where the three
outputs still differ is grouped by where they part (`group_key`), and the first document of each
group is minimised (runs of lines, then of characters, dropped while the group stays the same) and
written to `--out` (default `Fuzz/.work/differential/differences.json`, outside git) with the three
outputs. Documents where only markdown-it-py differs from Cadence and cmark-gfm are counted apart.
A group is triaged when `TRIAGE.md` names its key in a `key:` line; the run exits 1 when a group is
not, or on a chunking failure.
"""

import argparse
import json
import os
import random
import re
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import Generator  # noqa: E402
from render import Cadence, CMarkGFM, MarkdownItPy, canonical  # noqa: E402
from triage import LAZY_INDENTATION, explanation, lazy_indentation_variants, rewritten  # noqa: E402

CHUNK_SIZES = [1, 2, 3, 5, 7, 11, 16, 64, 200]


class Renderers:
    def __init__(self, cadence_binary):
        self.cadence = Cadence(cadence_binary)
        self.cmark = CMarkGFM()
        self.mdit = MarkdownItPy()

    def verdicts(self, documents):
        """For each document: its three raw outputs and its group key ('' when nothing is left to
        explain)."""
        ours = self.cadence.render(documents)
        cmark = self.cmark.render(documents)
        mdit = self.mdit.render(documents)
        return [((o, c, m), classify(d, o, c, m, self.cmark)[1]) for d, o, c, m in zip(documents, ours, cmark, mdit)]


def classify(document, ours, cmark, mdit, cmark_renderer=None):
    """(the names of the known departures that explain the difference, the group key of what is left)."""
    ours, cmark, mdit = canonical(ours), canonical(cmark), canonical(mdit)
    if ours == cmark == mdit:
        return [], ""
    if ours == cmark:
        return ["markdown-it-py alone"], ""
    rewrote, used = rewritten(cmark, ours)
    if ours == rewrote:
        return used + ([] if ours == mdit else ["markdown-it-py alone"]), ""
    departures = explanation(document, ours, cmark, mdit)
    if departures:
        return used + [name for name in departures if name not in used], ""
    if cmark_renderer is not None:
        variants = lazy_indentation_variants(document)
        for variant in cmark_renderer.render(variants):
            if rewritten(canonical(variant), ours)[0] == ours:
                return used + [LAZY_INDENTATION], ""
        for variant in cmark_renderer.render(variants):
            # The lazy line's indentation, and another departure.
            departures = explanation(document, ours, canonical(variant), mdit)
            if departures:
                return used + [LAZY_INDENTATION] + [name for name in departures if name not in used], ""
    return used, group_key(ours, rewrote, mdit)


def signature(ours, cmark, mdit):
    """Which renderers agree: '' when all three do."""
    if ours == cmark == mdit:
        return ""
    if ours == cmark:
        return "markdown-it-py alone"
    if ours == mdit:
        return "cmark-gfm alone"
    if cmark == mdit:
        return "Cadence alone"
    return "all three differ"


TOKEN = re.compile(r"<[^>]*>|[^<]+")
TAG = re.compile(r"<(/?[a-z0-9]+)((?:\s+[a-z-]+=\"[^\"]*\")*)")


def structure(token):
    """A token's kind: a tag with its attribute names (not values), or `text`."""
    m = TAG.match(token)
    if not m:
        return "<!--" if token.startswith("<!") else "text"
    names = re.findall(r"([a-z-]+)=", m.group(2))
    return "<" + " ".join([m.group(1)] + names) + ">"


def group_key(ours, cmark, mdit):
    """The signature and the first token where the outputs part, as tag names and attribute names
    (Cadence against cmark-gfm, or against markdown-it-py when only markdown-it-py differs), with
    the two tags that enclose it: one group per way of parting, whatever the words."""
    wanted = signature(ours, cmark, mdit)
    if not wanted:
        return ""
    other = mdit if wanted == "markdown-it-py alone" else cmark
    a, b = TOKEN.findall(ours), TOKEN.findall(other)
    kinds_a, kinds_b = [structure(t) for t in a], [structure(t) for t in b]
    i = next((k for k, (x, y) in enumerate(zip(kinds_a, kinds_b)) if x != y), None)
    what = "structure"
    if i is None and len(a) != len(b):
        i = min(len(a), len(b))
    if i is None:
        what = "content"
        i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), 0)
    stack = []
    for kind in kinds_a[:i]:
        if kind.startswith("</"):
            if stack:
                stack.pop()
        elif kind.startswith("<") and kind.split()[0].strip("<>") not in ("br", "hr", "img", "input", "!--"):
            stack.append(kind.split()[0].strip("<>"))
    at = lambda kinds: kinds[i] if i < len(kinds) else "end"
    return "%s: %s in %s: %s ≠ %s" % (wanted, what, "/".join(stack[-2:]) or "document", at(kinds_a), at(kinds_b))


def minimise(renderers, document, key, budget=80):
    """Drops runs of lines, then runs of characters, halving the run when none can go, while the
    outputs still part in the same way (the same group key). Each round renders all its candidates
    in one batch."""
    current = document
    for unit in ("line", "chars"):
        pieces = current.split("\n") if unit == "line" else list(current)
        joiner = "\n" if unit == "line" else ""
        size = max(1, len(pieces) // 2)
        while budget > 0 and pieces:
            budget -= 1
            candidates = [pieces[:i] + pieces[i + size:] for i in range(0, len(pieces), size)]
            texts = [joiner.join(c) for c in candidates]
            found = next((i for i, (_, k) in enumerate(renderers.verdicts(texts)) if k == key), None)
            if found is not None:
                pieces = candidates[found]
                size = min(size, max(1, len(pieces) // 2))
            elif size == 1:
                break
            else:
                size //= 2
        current = joiner.join(pieces)
    return current


def triaged_keys(path):
    """The group keys `TRIAGE.md` names, each in a `key:` line under the `###` heading of its verdict."""
    keys = {}
    if not os.path.exists(path):
        return keys
    verdict = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("### "):
            verdict = line[4:].strip()
        m = re.match(r"\s*key: `(.*)`\s*$", line)
        if m:
            keys[json.loads('"' + m.group(1) + '"')] = verdict
    return keys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cadence", required=True, help="the cadence binary")
    parser.add_argument("--documents", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(here, "..", ".work", "differential"))
    parser.add_argument("--triage", default=os.path.join(here, "TRIAGE.md"))
    parser.add_argument("--minimise", type=int, default=100,
                        help="minimise the first example of at most this many groups (the rest keep theirs whole)")
    arguments = parser.parse_args()

    renderers = Renderers(arguments.cadence)
    known = triaged_keys(arguments.triage)
    os.makedirs(arguments.out, exist_ok=True)
    groups = {}  # group key -> record
    explained = {}  # known departure -> documents
    chunk_failures = []
    chooser = random.Random(arguments.seed)
    started = time.time()
    done = differing = 0
    while done < arguments.documents:
        n = min(arguments.batch, arguments.documents - done)
        documents = [Generator(arguments.seed * 1_000_000_007 + done + i).document() for i in range(n)]
        whole = renderers.cadence.render(documents)
        chunk_size = chooser.choice(CHUNK_SIZES)
        chunked = renderers.cadence.render(documents, chunk_size)
        for d, w, c in zip(documents, whole, chunked):
            if w != c:
                chunk_failures.append({"input": d, "chunk_size": chunk_size, "whole": w, "chunked": c})
        cmark = renderers.cmark.render(documents)
        mdit = renderers.mdit.render(documents)
        for d, o, c, m in zip(documents, whole, cmark, mdit):
            used, key = classify(d, o, c, m, renderers.cmark)
            for name in used:
                explained[name] = explained.get(name, 0) + 1
            if not key:
                continue
            differing += 1
            record = groups.get(key)
            if record is None:
                small = minimise(renderers, d, key) if len(groups) < arguments.minimise else d
                (o2, c2, m2), _ = renderers.verdicts([small])[0]
                record = groups[key] = {"key": key, "input": small, "cadence": o2, "cmark-gfm": c2,
                                        "markdown-it-py": m2, "count": 0, "verdict": known.get(key)}
            record["count"] += 1
        done += n
        print("%d documents, %d unexplained differences in %d groups, %d chunking failures, %.0f documents/s" %
              (done, differing, len(groups), len(chunk_failures), done / (time.time() - started)),
              file=sys.stderr, flush=True)

    ordered = sorted(groups.values(), key=lambda r: -r["count"])
    with open(os.path.join(arguments.out, "differences.json"), "w", encoding="utf-8") as f:
        json.dump({"documents": done, "explained": explained, "differing": differing, "groups": ordered,
                   "chunking": chunk_failures}, f, indent=1, ensure_ascii=False)
    untriaged = [r for r in ordered if r["verdict"] is None]
    for r in untriaged[:30]:
        print("untriaged (%d times) key: `%s` input: %s" % (r["count"], json.dumps(r["key"], ensure_ascii=False)[1:-1],
                                                         json.dumps(r["input"], ensure_ascii=False)))
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    python_cpu, cadence_cpu = own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime
    print("CPU: %.1f s in Python (generator, references, comparison), %.1f s in cadence: %.0f documents per CPU second"
          % (python_cpu, cadence_cpu, done / max(python_cpu + cadence_cpu, 1e-9)))
    print("%d documents in %.0f s; explained by known departures: %s; %d other differences in %d groups "
          "(%d untriaged); %d chunking failures"
          % (done, time.time() - started, json.dumps(explained), differing, len(groups), len(untriaged),
             len(chunk_failures)))
    sys.exit(1 if untriaged or chunk_failures else 0)


if __name__ == "__main__":
    main()
