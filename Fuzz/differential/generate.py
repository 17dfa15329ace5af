"""Random markdown documents built from the constructs LLM answers use, nested at random.

A document is a list of blocks; a container (list item, block quote) holds blocks of its own, so a
list item may hold a table, a fenced code block, a quote, a task item, an HTML block or link reference
definitions, to a depth of three. Most choices are well-formed markdown; a few are near misses (an
indentation one column short or long, a lazy continuation line, a missing blank line) because that is
where parsers part ways.

    from generate import Generator
    text = Generator(seed=7).document()
"""

import random

WORDS = ["alpha", "beta", "gamma", "delta", "one", "two", "x", "y", "sequence", "value", "note", "café", "日本"]
# Tags the GFM tag filter leaves alone: the filtered ones (script, style, title …) are a known,
# deliberate difference from markdown-it-py, which has no tag filter.
BLOCK_TAGS = ["div", "details", "section", "table", "p", "pre"]
INLINE_TAGS = ["span", "b", "kbd", "sup"]


class Generator:
    def __init__(self, seed):
        self.random = random.Random(seed)
        self.labels = []

    def chance(self, p):
        return self.random.random() < p

    def pick(self, items):
        return self.random.choice(items)

    # Inlines

    def word(self):
        return self.pick(WORDS)

    def inline(self):
        r = self.random.random()
        w = self.word()
        if r < 0.35:
            return w
        if r < 0.45:
            return self.pick(["*", "_", "**", "__", "***"]).join(["", w, ""]) if self.chance(0.8) else "*" + w
        if r < 0.52:
            return "`" + self.pick([w, "*em*", "a | b", "` x `", "<b>"]) + "`"
        if r < 0.58:
            # Not `~w~`: markdown-it-py strikes only double tildes, where GFM strikes single ones too
            # (GFM spec example 491), a known difference that would hide others in the same document.
            return "~~" + w + "~~"
        if r < 0.65:
            return "[" + w + "](" + self.pick(["https://a.example/" + w, "/p", "<b c>", "u 'title'"]) + ")"
        if r < 0.72:
            label = self.label() if self.chance(0.7) else str(self.random.randint(1, 9))
            return self.pick(["[" + w + "][" + label + "]", "[" + label + "]", "[" + label + "][]"])
        if r < 0.76:
            return "<https://auto.example/" + w + ">"
        if r < 0.80:
            tag = self.pick(INLINE_TAGS)
            return "<" + tag + ">" + w + "</" + tag + ">"
        if r < 0.84:
            return self.pick(["&amp;", "&copy;", "&#35;", "&#x41;", "&nbsp;", "\\*", "\\|", "&", "<", ">", '"'])
        if r < 0.88:
            return self.pick(["[ ]", "[x]", "[X]", "|", "\\", "*", "_"])
        if r < 0.92:
            return "![" + w + "](/i.png)"
        return w + self.pick(["  \n", "\\\n", "\n"]) + self.word()

    def text(self, n=None):
        n = n or self.random.randint(1, 5)
        return " ".join(self.inline() for _ in range(n))

    def label(self):
        if not self.labels or self.chance(0.3):
            self.labels.append(str(len(self.labels) + 1) if self.chance(0.7) else self.word())
        return self.pick(self.labels)

    # Blocks: each returns a list of lines (without line endings)

    def paragraph(self):
        return self.text().split("\n") + ([self.text()] if self.chance(0.2) else [])

    def heading(self):
        if self.chance(0.8):
            return ["#" * self.random.randint(1, 6) + " " + self.text(2)]
        return [self.text(2), self.pick(["===", "---", "-"])]

    def code(self):
        if self.chance(0.2):
            return ["    " + self.text(2), "    " + self.word()]
        fence = self.pick(["```", "~~~", "````"])
        info = self.pick(["", "swift", "python x", "js"])
        body = [self.pick([self.text(2), "- not a list", "> not a quote", "", "  indented", "| a | b |"])
                for _ in range(self.random.randint(0, 3))]
        close = [] if self.chance(0.05) else [fence if self.chance(0.9) else fence + "`"]
        return [fence + info] + body + close

    def html(self):
        r = self.random.random()
        if r < 0.35:
            return ["<!-- " + self.word() + " -->" + self.pick(["", " " + self.word()])]
        if r < 0.45:
            return ["<!--", self.word(), "-->"]
        tag = self.pick(BLOCK_TAGS)
        if r < 0.75:
            return ["<" + tag + ">", self.text(2), "</" + tag + ">"]
        return ["<" + tag + ' class="c">' + self.text(1) + "</" + tag + ">"]

    def definition(self):
        line = "[" + self.label() + "]: " + self.pick(["https://ref.example/" + str(self.random.randint(1, 9)), "/u", "<a b>"])
        title = self.pick(["", ' "title"', " 'title'", " (title)"])
        if title and self.chance(0.2):
            return [line, "  " + title.strip()]
        return [line + title]

    def table(self):
        columns = self.random.randint(1, 4)
        cell = lambda: self.pick([self.word(), "`a | b`", "*" + self.word() + "*", "", "\\|", self.word() + " " + self.word()])
        row = lambda n: ("| " if self.chance(0.8) else "") + " | ".join(cell() for _ in range(n)) + (" |" if self.chance(0.8) else "")
        align = lambda: self.pick(["---", ":--", "--:", ":-:", "-"])
        delimiter = "|" + "|".join(align() for _ in range(columns)) + "|"
        lines = [row(columns), delimiter]
        lines += [row(self.random.randint(max(1, columns - 1), columns + 1)) for _ in range(self.random.randint(0, 3))]
        return lines

    def rule(self):
        return [self.pick(["---", "***", "___", "* * *", "- - -"])]

    def quote(self, depth):
        lines = []
        for block in self.blocks(depth + 1, self.random.randint(1, 3)):
            for i, line in enumerate(block):
                lazy = i > 0 and line and self.chance(0.05)
                lines.append(line if lazy else (">" if not line else "> " + line) if self.chance(0.9) else ">" + line)
        return lines

    def list(self, depth):
        ordered = self.chance(0.35)
        marker = self.pick([".", ")"]) if ordered else self.pick(["-", "+", "*"])
        start = self.random.choice([1, 1, 1, 0, 2, 9])
        loose = self.chance(0.3)
        lines = []
        for n in range(self.random.randint(1, 4)):
            prefix = (str(start + n) + marker if ordered else marker) + self.pick([" ", " ", " ", "  "])
            if self.chance(0.35):
                prefix += self.pick(["[ ] ", "[x] ", "[X] ", "[ ]", "[x]\t"])
            width = len(prefix)
            if self.chance(0.08):
                width += self.pick([-1, 1])
            item = []
            for b, block in enumerate(self.blocks(depth + 1, self.random.randint(1, 3))):
                if b > 0 and loose:
                    item.append("")
                item += block
            for i, line in enumerate(item):
                if i == 0:
                    lines.append(prefix + line)
                elif not line:
                    lines.append("")
                elif i > 0 and self.chance(0.04):
                    lines.append(line)  # lazy or under-indented
                else:
                    lines.append(" " * width + line)
            if loose or self.chance(0.1):
                lines.append("")
        return lines

    def block(self, depth):
        leaves = [self.paragraph, self.heading, self.code, self.html, self.definition, self.table, self.rule]
        weights = [30, 6, 10, 8, 8, 10, 3]
        if depth < 3:
            leaves += [lambda: self.quote(depth), lambda: self.list(depth)]
            weights += [8, 17]
        return self.random.choices(leaves, weights)[0]()

    def blocks(self, depth, n):
        result = []
        for _ in range(n):
            result.append(self.block(depth))
            if self.chance(0.6):
                result[-1] = result[-1] + [""]
        return result

    def document(self):
        self.labels = []
        lines = [line for block in self.blocks(0, self.random.randint(1, 5)) for line in block]
        return "\n".join(lines) + ("\n" if self.chance(0.9) else "")


if __name__ == "__main__":
    import sys

    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        print(Generator(seed).document())
        print("-----")
