"""Shared by the pacing scripts (`pacing_seeds.py`, `pacing_gate.py`, `pacing_bound.py`): the pacing
lab as a module, held-out traces, `cadence pace` runs, and a script-aware oracle.

The lab (`../shared/pacing/pacing_lab.py`, standard library only) is imported in-process, so a
timeline is scored without a Python start-up per call.
"""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_LAB = REPO.parent / "shared" / "pacing"


def load_lab(folder: str | Path = DEFAULT_LAB):
    """The pacing lab module from `folder`."""
    sys.path.insert(0, str(folder))
    return importlib.import_module("pacing_lab")


def export_holdout(lab_folder: str | Path, seed: int, out: Path) -> None:
    """Writes the lab's held-out traces for `seed` (`<type>-seed<seed>.json`) into `out`."""
    subprocess.run([sys.executable, str(Path(lab_folder) / "pacing_lab.py"), "export-traces", "--holdout",
                    "--seed", str(seed), "--out", str(out)], check=True, stdout=subprocess.DEVNULL)


def pace(cadence: str, trace: Path, hz: float, *extra: str) -> dict:
    """`cadence pace` on one trace: the frame timeline as the lab reads it."""
    out = subprocess.run([cadence, "pace", "--trace", str(trace), "--hz", f"{hz:g}", *extra],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


# -- a script-aware oracle -------------------------------------------------------------------------
# The lab's `oracle` keeps whole words by whitespace, so a CJK run is one word; its `oracle-char`
# keeps only grapheme clusters, so it cuts Latin words. Cadence's units follow the script: whole
# words where a script spaces its words, one ideograph, kana, Hangul syllable or cluster at a time
# where it does not. `ScriptOracle` knows the whole text and shows, at every frame, the longest
# received prefix whose cut keeps those units whole: the latency no pacer with Cadence's units can
# beat, even one that knows the future.

_OWN_UNIT = [
    (0x0E00, 0x0FFF), (0x1000, 0x109F), (0x1100, 0x11FF), (0x1780, 0x17FF), (0x1950, 0x19FF),
    (0x1A20, 0x1AAF), (0x1B00, 0x1B7F), (0x2E80, 0x2FDF), (0x3000, 0x33FF), (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF), (0xA960, 0xA97F), (0xA980, 0xA9FF), (0xAA60, 0xAADF), (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x1B000, 0x1B16F), (0x1F000, 0x1FAFF),
    (0x20000, 0x3FFFF),
]


def own_unit(ch: str) -> bool:
    """A cluster starting with `ch` is a unit of its own (CJK, kana, Hangul, Thai and the other
    scripts written without spaces, emoji): Cadence's `Script.isOwnUnit`, from code-point ranges
    and, for symbols from the arrows block on, the general category."""
    o = ord(ch)
    if o < 0x0E00:
        return False
    if any(a <= o <= b for a, b in _OWN_UNIT):
        return True
    return o >= 0x2190 and unicodedata.category(ch) == "So"


def script_oracle(lab, text: str):
    """A lab pacer (`lab.Oracle` with Cadence's units) for `lab.simulate`."""

    class ScriptOracle(lab.Oracle):
        name = "oracle-script"

        def __init__(self):
            super().__init__(text, "word", strict=True)

        def _whole(self, v):
            if v == 0 or v == len(text):
                return True
            if lab.splits_grapheme(text, v):
                return False
            if lab.in_spans(v, self.spans):
                return text[v - 1] == "\n"
            if text[v - 1] in lab._WS or text[v] in lab._WS:
                return True
            return own_cluster(lab, text, v - 1) or own_cluster(lab, text, v)

    return ScriptOracle()


def spaced_word_splits(lab, text: str, visible: list[int]) -> int:
    """Changes that end inside a word of a spaced script (outside code fences, with a cluster of a
    spaced script on each side): the lab's partWord% without CJK runs, emoji and keycaps."""
    spans = lab.code_regions(text)
    splits, previous = 0, 0
    for v in visible:
        if v != previous and 0 < v < len(text) and not lab.in_spans(v, spans) \
                and text[v - 1] not in lab._WS and text[v] not in lab._WS and not lab.splits_grapheme(text, v) \
                and not own_cluster(lab, text, v - 1) and not own_cluster(lab, text, v):
            splits += 1
        previous = v
    return splits


def own_cluster(lab, text: str, i: int) -> bool:
    """Whether the grapheme cluster holding `text[i]` is a unit of its own: it starts with an
    own-unit scalar, or it is an emoji presentation (a keycap `1️⃣`, VS16), as in Cadence."""
    start = i
    while start > 0 and lab.splits_grapheme(text, start):
        start -= 1
    end = i + 1
    while end < len(text) and lab.splits_grapheme(text, end):
        end += 1
    return own_unit(text[start]) or any(c in "\u20e3\ufe0f" for c in text[start:end])
