"""Known differences, each recognised by a rule on the three canonical outputs, and argued in
TRIAGE.md under the same name. A difference no rule explains is new: `run.py` minimises it, groups
it by where the outputs part, and fails until it is triaged (a rule here, or its group key in
TRIAGE.md)."""

import re

CHECKBOX = {"x": '<input checked="" disabled="" type="checkbox">', " ": '<input disabled="" type="checkbox">'}


def _checkboxes_drawn(html):
    """cmark-gfm's output with the task-list markers it left as text drawn as checkboxes."""
    def draw(m):
        return "<li>" + CHECKBOX["x" if m.group(2) in "xX" else " "] + (m.group(1) or " ")
    return re.sub(r"<li>(<p>)?\[([ xX])\]\s+", draw, html)


# cmark-gfm's departures from GFM and from GitHub, each a rewriting of its canonical output into what
# GitHub shows: Cadence is compared with cmark-gfm after them.
CMARK_REWRITES = [
    # Its tasklist extension draws no checkbox in a list inside a block quote, nor in a list that is
    # the first block of another item; GitHub draws both (see TRIAGE.md).
    ("cmark-gfm omits a task checkbox", _checkboxes_drawn),
]


def rewritten(cmark):
    """cmark-gfm's canonical output after every known rewriting, and the names of those that changed it."""
    used = []
    for name, rewrite in CMARK_REWRITES:
        changed = rewrite(cmark)
        if changed != cmark:
            used.append(name)
            cmark = changed
    return cmark, used
