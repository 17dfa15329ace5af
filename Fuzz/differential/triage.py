"""Known differences, each recognised by a rule on the input and the three canonical outputs, and
argued in TRIAGE.md under the same name. A difference no rule explains is new: `run.py` minimises it,
groups it by where the outputs part, and fails until it is triaged (a rule here, or its group key in
TRIAGE.md)."""

import re

CHECKBOX = {"x": '<input checked="" disabled="" type="checkbox">', " ": '<input disabled="" type="checkbox">'}

# The tags `render.canonical` drops the whitespace around: after a task marker, one of them stands
# for the whitespace that followed the marker.
_BLOCK_TAG = r"(?=</?(?:p|li|ul|ol|blockquote|h[1-6]|table|thead|tbody|tr|th|td|hr|pre|div)\b)"


def _checkboxes_drawn(html, before_tag=False):
    """cmark-gfm's output with the task-list markers it left as text drawn as checkboxes. The
    canonical form drops the whitespace before a block tag, so `[x]<div>` may have been `[x] <div>`:
    with `before_tag` a marker right before a block tag is drawn too."""
    def draw(m):
        space = " " if m.group(0)[-1].isspace() else ""
        return "<li>" + CHECKBOX["x" if m.group(2) in "xX" else " "] + (m.group(1) or space)
    if before_tag:
        # Where `[x]` is also a defined label, cmark-gfm's text is a link `x`.
        html = re.sub(r"<li>(<p>)?<a href=\"[^\"]*\"(?: title=\"[^\"]*\")?>([xX])</a>(?=[ \t\n<])", r"<li>\1[\2]", html)
        # An empty task item of a loose list: cmark-gfm's `<p>[x]</p>` is a box alone.
        html = re.sub(r"<li><p>\[([ xX])\]</p>", lambda m: "<li>" + CHECKBOX["x" if m.group(1) in "xX" else " "], html)
    pattern = r"<li>(<p>)?\[([ xX])\](?:[ \t\n]+" + ("|" + _BLOCK_TAG if before_tag else "") + ")"
    return re.sub(pattern, draw, html)


# cmark-gfm's departures from GFM and from GitHub, each a rewriting of its canonical output into what
# GitHub shows: Cadence is compared with cmark-gfm after them.
CMARK_REWRITES = [
    # Its tasklist extension draws no checkbox in a list inside a block quote, nor in a list that is
    # the first block of another item; GitHub draws both (see TRIAGE.md).
    ("cmark-gfm omits a task checkbox", _checkboxes_drawn),
]

_ITEM = r"^[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]+"
_DEFINITION_LINE = re.compile(r"^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*(?:\[[ xX]\][ \t]+)?\[[^\]\n]+\]:", re.M)
_BREAK_IN_ITEM = re.compile(r"^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*[ \t]*(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$", re.M)
_P = re.compile(r"\s*</?p>\s*")
_TIGHT = re.compile(r">\s+")


_CHECKBOX_BEFORE_BLOCK = re.compile(r'type="checkbox"><(?:table|h[1-6]|ol|ul|blockquote|pre)\b')


def _marker_before_block(document, ours, cmark, mdit):
    # Cadence reads `[x]` as the text of a heading or a table's header cell (the item's first block
    # is then no paragraph, GFM 5.3); cmark-gfm took the marker off before it knew the block. Or
    # cmark-gfm draws a box on an item whose first block it made a table, heading, list or quote,
    # where Cadence draws none there.
    if re.search(r"<(?:h[1-6]|th)>\[[ xX]\]", ours) and "checkbox" in cmark:
        return True
    return any(m.group(0) not in ours for m in _CHECKBOX_BEFORE_BLOCK.finditer(cmark))


def _definition_before_table(document, ours, cmark, mdit):
    # Cadence heads a table after a definition that cmark-gfm's table extension took as text.
    if "<table>" in cmark and any(m.group(0) not in ours for m in re.finditer(r"<p>\[[^\]<]+\]:", cmark)):
        return True
    return ours.count("<table>") > cmark.count("<table>") and bool(_DEFINITION_LINE.search(document))


def _setext_after_definition(document, ours, cmark, mdit):
    # `[1]:u⏎---`: the definition goes, and the underline of no paragraph is a thematic break;
    # cmark-gfm 0.29 writes the underline as a paragraph.
    return bool(re.search(r"<p>(?:-+|=+)</p>", cmark)) and bool(_DEFINITION_LINE.search(document))


def _closing_pre(document, ours, cmark, mdit):
    return bool(re.search(r"^[ \t>]*</pre>", document, re.M)) and bool(re.search(r"</pre>[^<]*</p>|<p></pre>", ours))


def _table_ends_at_lone_pipe(document, ours, cmark, mdit):
    return "</table><p>|" in cmark and bool(re.search(r"^[ \t>]*\|[ \t]*$", document, re.M))


def _definition_after_marker(document, ours, cmark, mdit):
    return bool(re.search(_ITEM + r"\[[ xX]\][ \t]+\[[^\]\n]+\]:", document, re.M))


def _unbalanced_destination(document, ours, cmark, mdit):
    return bool(re.search(r"\[[^\]\n]+\]:[ \t]*\([^)\n]*$", document, re.M))


def _looseness_after_definition(document, ours, cmark, mdit):
    # Only `<p>` tags differ, Cadence has more of them (cmark-gfm lost a blank line's flag), and the
    # document has a definition or a thematic break for cmark-gfm to lose it with.
    if _TIGHT.sub(">", _P.sub("", ours)) != _TIGHT.sub(">", _P.sub("", cmark)) or len(_P.findall(ours)) <= len(_P.findall(cmark)):
        return False
    return bool(_DEFINITION_LINE.search(document) or _BREAK_IN_ITEM.search(document))


def _table_loosens_list(document, ours, cmark, mdit):
    # Only `<p>` tags differ, cmark-gfm has more of them, and the document has a table.
    if _TIGHT.sub(">", _P.sub("", ours)) != _TIGHT.sub(">", _P.sub("", cmark)):
        return False
    return len(_P.findall(cmark)) > len(_P.findall(ours)) and "</table>" in cmark


def _code_span_after_longer_run(document, ours, cmark, mdit):
    # After a backtick run that closes nowhere, cmark-gfm misses a later code span: its text keeps
    # the backticks where Cadence has the span.
    return ("``" in document and ours.count("<code>") > cmark.count("<code>")
            and bool(re.search(r"`[^`<]+`", cmark)))


def _checked_after_unchecked(document, ours, cmark, mdit):
    return bool(re.search(_ITEM + r"\[ \][ \t]+[^\n]*\[[xX]\]", document, re.M))


# cmark-gfm's departures that no rewriting of its output can express: a document where Cadence and
# cmark-gfm (after the rewritings) still differ is explained by the first rule that holds. A rule
# reads the input and the outputs; it may hide another difference in the same document, which the
# groups of the documents that meet no rule still show for other seeds.
CMARK_EXPLANATIONS = [
    ("cmark-gfm: a task marker read before its block", _marker_before_block),
    ("cmark-gfm: a definition after a task marker", _definition_after_marker),
    ("cmark-gfm: an unbalanced parenthesis as a destination", _unbalanced_destination),
    ("cmark-gfm: a checked box for `[x]` after an unchecked marker", _checked_after_unchecked),
    ("cmark-gfm: definitions and looseness", _looseness_after_definition),
    ("cmark-gfm: a table ends at a row of a lone pipe", _table_ends_at_lone_pipe),
    ("cmark-gfm: a table in an item loosens its list", _table_loosens_list),
    ("cmark-gfm: a table takes a definition as its text", _definition_before_table),
    ("cmark-gfm: a setext underline after definitions", _setext_after_definition),
    ("cmark-gfm: a code span after an unmatched longer backtick run", _code_span_after_longer_run),
    ("Both references: a closing `pre` tag", _closing_pre),
]


def lazy_indentation_variants(document):
    """The document with the indentation of each line that may be a lazy continuation line removed
    (one line at a time, then all of them): cmark-gfm keeps a lazy line's indentation in the
    paragraph's content, where CommonMark 4.8 drops it, so cmark-gfm's output for a variant shows
    what it would render if it dropped it."""
    lines = document.split("\n")
    candidates = [i for i in range(1, len(lines)) if lines[i][:1] in (" ", "\t") and lines[i].strip()
                  and lines[i - 1].strip()]
    variants = []
    for i in candidates:
        variants.append("\n".join(lines[:i] + [lines[i].lstrip(" \t")] + lines[i + 1:]))
    if len(candidates) > 1:
        variants.append("\n".join(line.lstrip(" \t") if k in candidates else line for k, line in enumerate(lines)))
    return variants


LAZY_INDENTATION = "cmark-gfm keeps a lazy line's indentation"


def rewritten(cmark, ours=None):
    """cmark-gfm's canonical output after every known rewriting, and the names of those that changed
    it. Given Cadence's output, a rewriting whose wider reading (`before_tag`) makes the two equal
    takes that reading."""
    used = []
    for name, rewrite in CMARK_REWRITES:
        changed = rewrite(cmark)
        if ours is not None and changed != ours and rewrite(cmark, before_tag=True) == ours:
            changed = ours
        if changed != cmark:
            used.append(name)
            cmark = changed
    return cmark, used


def explanation(document, ours, cmark, mdit):
    """The name of the known cmark-gfm departure that explains Cadence ≠ cmark-gfm, or None. Each rule
    reads cmark-gfm's output after the checkbox rewriting, in its strict and its wider reading."""
    for reading in {cmark, _checkboxes_drawn(cmark, before_tag=True)}:
        name = next((name for name, holds in CMARK_EXPLANATIONS if holds(document, ours, reading, mdit)), None)
        if name:
            return name
    return None
