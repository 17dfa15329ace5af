"""Known differences, each recognised by a rule on the input and the three canonical outputs, and
argued in TRIAGE.md under the same name. A difference no rule explains is new: `run.py` minimises it,
groups it by where the outputs part, and fails until it is triaged (a rule here, or its group key in
TRIAGE.md)."""

import re

LAZY_INDENTATION = "cmark-gfm keeps a lazy line's indentation"

CHECKBOX = {"x": '<input checked="" disabled="" type="checkbox">', " ": '<input disabled="" type="checkbox">'}

# The tags `render.canonical` drops the whitespace around: after a task marker, one of them stands
# for the whitespace that followed the marker.
_BLOCK_TAG = r"(?=</?(?:p|li|ul|ol|blockquote|h[1-6]|table|thead|tbody|tr|th|td|hr|pre|div)\b)"


_TAG = re.compile(r"<(/?)([a-z][a-z0-9]*)\b[^>]*>")
# An item's text that starts with a task marker: `[x]`, or a link `x` where `[x]` is also a defined
# label, then whitespace (`space`), a block tag or the item's end.
_MARKER = re.compile(r"<li>(<p>)?(?:\[([ xX])\]|<a href=\"[^\"]*\"(?: title=\"[^\"]*\")?>([xX])</a>)"
                     r"(?:(?P<space>[ \t\n]+)|" + _BLOCK_TAG + r"|(?=</li>))")


def _items(html):
    """The offset of each `<li>` in `html`, and whether it is in a list inside a block quote or in a
    list that is the first block of another item: where cmark-gfm's task-list extension draws no
    checkbox."""
    items, stack = [], []  # the open tags, each with whether it is a list first in an item
    after_li = -1
    for m in _TAG.finditer(html):
        closing, tag = m.group(1) == "/", m.group(2)
        first_in_item = after_li == m.start()
        after_li = m.end() if tag == "li" and not closing else -1
        if tag not in ("blockquote", "ul", "ol", "li"):
            continue  # raw HTML's `<p>` or `</p>` must not close a quote
        if closing:
            # A closing tag of raw HTML that closes nothing open is left alone.
            if any(t == tag for t, _ in stack):
                while stack.pop()[0] != tag:
                    pass
            continue
        if tag == "li":
            items.append((m.start(), any(t == "blockquote" for t, _ in stack) or bool(stack and stack[-1][1])))
        stack.append((tag, tag in ("ul", "ol") and first_in_item))
    return items


def _checkboxes_drawn(html, ours=None):
    """cmark-gfm's output with the task markers it left as text drawn as checkboxes, in the items
    where it draws none (`_items`). Without `ours`, a marker followed by whitespace is drawn (the
    strict reading). With `ours`, an item's marker is drawn where Cadence draws a checkbox in the
    item at the same place: the canonical form drops the whitespace before a block tag (`[x]<div>`
    may have been `[x] <div>`, `[ ]</li>` an empty task item), where `[x]` is a defined label
    cmark-gfm's text is a link `x`, and a marker after a definition starts no task item."""
    items = _items(html)
    boxes = None
    if ours is not None:
        ours_items = _items(ours)
        if len(ours_items) != len(items):
            return html
        boxes = [bool(re.match(r"<li>(?:<p>)?<input", ours[offset:])) for offset, _ in ours_items]
    out, position = [], 0
    for k, (offset, omitted) in enumerate(items):
        m = _MARKER.match(html, offset) if omitted else None
        if not m or not (boxes[k] if boxes is not None else m.group("space") and m.group(2)):
            continue
        box = CHECKBOX["x" if (m.group(2) or m.group(3)) in "xX" else " "]
        out += [html[position:offset], "<li>", box]
        position = m.end()
        if m.group(1) and html.startswith("</p>", position):
            position += len("</p>")  # an empty task item of a loose list: `<p>[x]</p>` is a box alone
        else:
            out.append(m.group(1) or (" " if m.group("space") else ""))
    return "".join(out) + html[position:]


# cmark-gfm's departures from GFM and from GitHub, each a rewriting of its canonical output into what
# GitHub shows: Cadence is compared with cmark-gfm after them.
CMARK_REWRITES = [
    # Its tasklist extension draws no checkbox in a list inside a block quote, nor in a list that is
    # the first block of another item; GitHub draws both (see TRIAGE.md).
    ("cmark-gfm omits a task checkbox", _checkboxes_drawn),
]

_ITEM = r"^[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]+"
_DEFINITION_LINE = re.compile(r"^(?:[ \t>]*(?:[-+*]|\d{1,9}[.)])[ \t]+)*[ \t>]*(?:\[[ xX]\][ \t]+)?\[[^\]\n]+\]:", re.M)
_BREAK_IN_ITEM = re.compile(r"^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*[ \t]*(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$", re.M)
_P = re.compile(r"\s*</?p>\s*")


def _without_p(html):
    """`html` without its paragraph tags and whitespace: what a list looks like, loose or tight."""
    return re.sub(r"\s+", "", _P.sub("", html))


_MARKER_ENDS_LINE = re.compile(_ITEM + r"\[[ xX]\][ \t]+\n[ \t>]*[^ \t\n>]", re.M)
# (A label may go on over lines, `3) [⏎1]:>⏎[x] )`, and so may the destination, `- [1]:⏎()⏎[x] `.)
_DEFINITION_THEN_MARKER = re.compile(_ITEM + r"\[[^\]]+\]:(?:[^\n]*\n){1,3}[ \t>]*\[[ xX]\]", re.M)


def _without_boxes(html):
    return re.sub(r"\s+", "", re.sub(r"<input[^>]*checkbox[^>]*>", "", html))


_CHECKBOX_BEFORE_BLOCK = re.compile(r'type="checkbox"><(?:table|h[1-6]|ol|ul|blockquote|pre)\b')


def _marker_before_block(document, ours, cmark, mdit):
    # Cadence reads `[x]` as the text of a heading or a table's header cell (the item's first block
    # is then no paragraph, GFM 5.3); cmark-gfm took the marker off before it knew the block. Or
    # cmark-gfm draws a box on an item whose first block it made a table, heading, list or quote,
    # where Cadence draws none there.
    if re.search(r"<(?:h[1-6]|th)(?: [^>]*)?>\[[ xX]\]", ours) and "checkbox" in cmark:
        return True
    if any(m.group(0) not in ours for m in _CHECKBOX_BEFORE_BLOCK.finditer(cmark)):
        return True
    # Or a marker ends its line and the next line is a lazy continuation of the item's paragraph:
    # cmark-gfm draws an empty task item and starts a paragraph after the list.
    empty = 'type="checkbox"></li>'
    if cmark.count(empty) > ours.count(empty) and _MARKER_ENDS_LINE.search(document):
        return True
    # Or an item's first line is a definition and the next starts with a marker: Cadence reads the
    # paragraph left after the definition, which starts with the marker; cmark-gfm looks for one on
    # the item's first line only.
    if ours.count("checkbox") > cmark.count("checkbox") and _DEFINITION_THEN_MARKER.search(document):
        return True
    # Or a marker in a quote's lazy lines inside an item: cmark-gfm draws a box on the outer item (or
    # gives its box that marker's state), Cadence keeps the marker as the quote's text.
    return (cmark.count("checkbox") >= ours.count("checkbox") and _without_boxes(cmark) == _without_boxes(ours)
            and bool(re.search(r"\[[ xX]\]", ours)))


# A definition as text after a tag (a paragraph's, a tight item's, a nested list's end): `[1]:u`, or a link `1` where the
# label is defined elsewhere too.
_DEFINITION_AS_TEXT = re.compile(r"(?:<(?:p|li|hr)>|</[a-z0-9]+>)(?:\[[^\]<]+\]|<a [^>]*>[^<]*</a>):[^<]*")


def _definition_before_table(document, ours, cmark, mdit):
    # Cadence heads a table after a definition that cmark-gfm's table extension took as text.
    if not _DEFINITION_LINE.search(document):
        return False
    if "<table>" in cmark and any(m.group(0) not in ours for m in _DEFINITION_AS_TEXT.finditer(cmark)):
        return True
    return ours.count("<table>") > cmark.count("<table>")


def _setext_after_definition(document, ours, cmark, mdit):
    # `[1]:u⏎---`: the definition goes, and the underline of no paragraph is a thematic break;
    # cmark-gfm 0.29 writes the underline as a paragraph.
    return bool(re.search(r"<(?:p|li)>(?:-+|=+)(?:<| )", cmark)) and bool(_DEFINITION_LINE.search(document))


def _closing_pre(document, ours, cmark, mdit):
    return bool(re.search(r"^[ \t>]*</pre>", document, re.M)) and bool(re.search(r"</pre>[^<]*</(?:p|li|h[1-6])>|<p></pre>", ours))


def _table_ends_at_lone_pipe(document, ours, cmark, mdit):
    return bool(re.search(r"</table>(?:<p>|<h[12]>)?\|", cmark)) and bool(re.search(r"^[ \t>]*\|[ \t]*$", document, re.M))


def _definition_after_marker(document, ours, cmark, mdit):
    return bool(re.search(_ITEM + r"\[[ xX]\][ \t]+\[[^\]\n]+\]:", document, re.M))


def _unbalanced_destination(document, ours, cmark, mdit):
    return bool(re.search(r"\[[^\]\n]+\]:[ \t]*\([^)\n]*$", document, re.M))


def _looseness_after_definition(document, ours, cmark, mdit):
    # Only `<p>` tags differ, Cadence has more of them (cmark-gfm lost a blank line's flag), and the
    # document has a definition or a thematic break for cmark-gfm to lose it with.
    # (Or where markdown-it-py agrees with Cadence, however many: cmark-gfm may move the flag to the
    # enclosing list, `+ * [⏎⏎    [a]:5⏎+ ]`.)
    if _without_p(ours) != _without_p(cmark) or ours == cmark:
        return False
    if len(_P.findall(ours)) <= len(_P.findall(cmark)) and ours != mdit:
        return False
    return bool(_DEFINITION_LINE.search(document) or _BREAK_IN_ITEM.search(document))


def _table_loosens_list(document, ours, cmark, mdit):
    # Only `<p>` tags differ, cmark-gfm has more of them, and the document has a table.
    if _without_p(ours) != _without_p(cmark):
        return False
    return len(_P.findall(cmark)) > len(_P.findall(ours)) and "</table>" in cmark


def _code_span_after_longer_run(document, ours, cmark, mdit):
    # After a backtick run that closes nowhere, cmark-gfm misses a later code span: its text keeps
    # the backticks where Cadence has the span.
    return ("``" in document and ours.count("<code>") > cmark.count("<code>")
            and bool(re.search(r"`[^`]+`", cmark)))


def _checked_after_unchecked(document, ours, cmark, mdit):
    return bool(re.search(_ITEM + r"\[ \][ \t]+[^\n]*\[[xX]\]", document, re.M))


_CODE_SPAN_OR_COMMENT = re.compile(r"(?<!<pre>)<code>[^<]*</code>|<!--.*?-->", re.S)


def _boxes_in_comments_hidden(html):
    return re.sub(r"<!--.*?-->", lambda m: _without_boxes(re.sub(r"\[[ xX]\]", "", m.group(0))), html, flags=re.S)


def _checkbox_in_comment(document, ours, cmark, mdit):
    # An HTML block `<!--` that its block does not close makes the rest a comment up to the next
    # `-->`: a checkbox that cmark-gfm omits (in a quote, a first nested list) is then inside it.
    return "<!--" in ours and _boxes_in_comments_hidden(ours) == _boxes_in_comments_hidden(cmark)


def _lowercase_declaration(document, ours, cmark, mdit):
    # `<!a`: HTML block start condition 4 is `<!` and an ASCII letter (CommonMark 0.31); cmark-gfm
    # 0.29 wants an uppercase one and writes a paragraph.
    return bool(re.search(r"^[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*<![a-z]", document, re.M)) and "&lt;!" in cmark


def _lazy_indentation_in_spans(document, ours, cmark, mdit):
    # A line that may be lazy, whose indentation cmark-gfm keeps, where dropping it to check
    # (`lazy_indentation_variants`) would change what the line is (`> x` a quote, a backtick run a
    # fence): the outputs differ only in the whitespace inside code spans and HTML comments.
    if not _lazy_candidates(document.split("\n")):
        return False
    squeeze = lambda html: _CODE_SPAN_OR_COMMENT.sub(lambda m: re.sub(r"\s+", "", m.group(0)), html)
    return squeeze(ours) == squeeze(cmark)


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
    (LAZY_INDENTATION, _lazy_indentation_in_spans),
    ("cmark-gfm omits a task checkbox", _checkbox_in_comment),
    ("cmark-gfm: a lowercase declaration", _lowercase_declaration),
]


_QUOTE_PREFIX = re.compile(r"^((?:[ ]{0,3}>[ ]?)*)([ \t]+)(?=\S)")


def _lazy_candidates(lines):
    """The indices of the lines that may be lazy continuation lines: indented after their quote
    markers, after a line that is not blank."""
    return [i for i in range(1, len(lines)) if _QUOTE_PREFIX.match(lines[i]) and lines[i - 1].strip(" \t>")]


def _unindented(line):
    return _QUOTE_PREFIX.sub(lambda m: m.group(1), line, count=1)


def lazy_indentation_variants(document):
    """The document with the indentation of each line that may be a lazy continuation line removed
    (one line at a time, then all of them): cmark-gfm keeps a lazy line's indentation in the
    paragraph's content, where CommonMark 4.8 drops it, so cmark-gfm's output for a variant shows
    what it would render if it dropped it."""
    lines = document.split("\n")
    candidates = _lazy_candidates(lines)
    variants = []
    for i in candidates:
        variants.append("\n".join(lines[:i] + [_unindented(lines[i])] + lines[i + 1:]))
    if len(candidates) > 1:
        variants.append("\n".join(_unindented(line) if k in candidates else line for k, line in enumerate(lines)))
    return variants


def rewritten(cmark, ours=None):
    """cmark-gfm's canonical output after every known rewriting, and the names of those that changed
    it. Given Cadence's output, a rewriting whose reading aligned with it (`_checkboxes_drawn`) makes
    the two equal takes that reading."""
    used = []
    for name, rewrite in CMARK_REWRITES:
        changed = rewrite(cmark)
        if ours is not None and changed != ours and rewrite(cmark, ours) == ours:
            changed = ours
        if changed != cmark:
            used.append(name)
            cmark = changed
    return cmark, used


_BLOCKS = {"p", "ul", "ol", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "table", "pre", "hr", "div"}


def _top_level(html):
    """`html` cut into its top-level blocks."""
    parts, stack, start = [], [], 0
    for m in _TAG.finditer(html):
        closing, tag = m.group(1) == "/", m.group(2)
        if tag not in _BLOCKS:
            continue
        if not closing and not stack and m.start() > start:
            parts.append(html[start:m.start()])
            start = m.start()
        if tag == "hr":
            pass
        elif not closing:
            stack.append(tag)
            continue
        elif tag in stack:
            while stack.pop() != tag:
                pass
        if not stack:
            parts.append(html[start:m.end()])
            start = m.end()
    return parts + ([html[start:]] if start < len(html) else [])


def _outer_boxes_removed(cmark, ours):
    """cmark-gfm's output without the boxes of the items where Cadence draws none, when Cadence's text
    keeps a marker (which cmark-gfm took for the item's, `+ a⏎  >x⏎      >⏎      2) [x]⇥`)."""
    items, ours_items = _items(cmark), _items(ours)
    if len(items) != len(ours_items) or not re.search(r"\[[ xX]\]", ours):
        return cmark
    out, position = [], 0
    for (offset, _), (ours_offset, _) in zip(items, ours_items):
        m = re.match(r"<li>(<p>)?<input[^>]*checkbox[^>]*> ?", cmark[offset:])
        if m and not re.match(r"<li>(?:<p>)?<input", ours[ours_offset:]):
            out += [cmark[position:offset], "<li>", m.group(1) or ""]
            position = offset + m.end()
    return "".join(out) + cmark[position:]


def _rule(document, ours, cmark, mdit):
    return next((name for name, holds in CMARK_EXPLANATIONS if holds(document, ours, cmark, mdit)), None)


def explanation(document, ours, cmark, mdit):
    """The names of the known cmark-gfm departures that explain Cadence ≠ cmark-gfm (empty when none
    does). The rules read cmark-gfm's canonical output `cmark` after the checkbox rewriting in its
    strict reading, in its reading aligned with Cadence's, and as it is; first one rule for the whole
    document, then one for each top-level block where the two differ (a document may hold two
    departures)."""
    readings = list(dict.fromkeys([rewritten(cmark)[0], _checkboxes_drawn(cmark, ours), cmark]))
    for reading in readings:
        name = _rule(document, ours, reading, mdit)
        if name:
            return [name]
    # A box cmark-gfm drew from a marker that Cadence keeps as text, and another departure.
    unboxed = _outer_boxes_removed(cmark, ours)
    name = unboxed != cmark and _rule(document, ours, unboxed, mdit)
    if name:
        return ["cmark-gfm: a task marker read before its block", name]
    # Boxes inside a comment (`_checkbox_in_comment`), and another departure.
    if "<!--" in ours:
        for reading in readings:
            name = _rule(document, _boxes_in_comments_hidden(ours), _boxes_in_comments_hidden(reading), mdit)
            if name:
                return ["cmark-gfm omits a task checkbox", name]
    for reading in readings:
        ours_blocks, their_blocks = _top_level(ours), _top_level(reading)
        if len(ours_blocks) < 2 or len(ours_blocks) != len(their_blocks):
            continue
        names = [_rule(document, a, b, mdit) for a, b in zip(ours_blocks, their_blocks) if a != b]
        if names and all(names):
            return sorted(set(names))
    return []
