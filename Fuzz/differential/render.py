"""The three renderers, each rendering a batch of documents in one process, and the canonical form
their HTML is compared in.

- Cadence: `cadence render --strict --to html --nul-separated`, one process per batch, whole or fed
  `chunk_size` characters at a time.
- cmark-gfm: Debian's libcmark-gfm through ctypes, with the extensions `cmark-gfm -e table -e
  strikethrough -e autolink -e tagfilter -e tasklist --unsafe` uses (the flags Cadence's own
  cmark-gfm tests use).
- markdown-it-py: its gfm-like preset (tables, strikethrough) with the task-list plugin, in this
  process. Its linkify is off: it links bare URLs by other rules than GFM's autolink extension, and
  the generator writes no bare URL.
"""

import ctypes
import ctypes.util
import html
import html.parser
import re
import subprocess


class Cadence:
    def __init__(self, binary):
        self.binary = binary

    def render(self, documents, chunk_size=None):
        arguments = [self.binary, "render", "--strict", "--to", "html", "--nul-separated"]
        if chunk_size:
            arguments += ["--chunk-size", str(chunk_size)]
        payload = b"".join(d.encode() + b"\0" for d in documents)
        result = subprocess.run(arguments, input=payload, capture_output=True, timeout=600)
        if result.returncode != 0:
            raise RuntimeError("cadence render failed: " + result.stderr.decode(errors="replace"))
        outputs = result.stdout.split(b"\0")
        if len(outputs) != len(documents) + 1:
            raise RuntimeError("cadence render wrote %d outputs for %d documents" % (len(outputs) - 1, len(documents)))
        return [o.decode() for o in outputs[:-1]]


class CMarkGFM:
    UNSAFE = 1 << 17
    EXTENSIONS = [b"table", b"strikethrough", b"autolink", b"tagfilter", b"tasklist"]

    def __init__(self):
        self.lib = ctypes.CDLL(ctypes.util.find_library("cmark-gfm") or "libcmark-gfm.so.0.29.0.gfm.6")
        ext = ctypes.CDLL(ctypes.util.find_library("cmark-gfm-extensions") or "libcmark-gfm-extensions.so.0.29.0.gfm.6")
        ext.cmark_gfm_core_extensions_ensure_registered()
        lib = self.lib
        lib.cmark_parser_new.restype = ctypes.c_void_p
        lib.cmark_parser_new.argtypes = [ctypes.c_int]
        lib.cmark_find_syntax_extension.restype = ctypes.c_void_p
        lib.cmark_find_syntax_extension.argtypes = [ctypes.c_char_p]
        lib.cmark_parser_attach_syntax_extension.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.cmark_parser_feed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.cmark_parser_finish.restype = ctypes.c_void_p
        lib.cmark_parser_finish.argtypes = [ctypes.c_void_p]
        lib.cmark_parser_get_syntax_extensions.restype = ctypes.c_void_p
        lib.cmark_parser_get_syntax_extensions.argtypes = [ctypes.c_void_p]
        lib.cmark_render_html.restype = ctypes.c_void_p
        lib.cmark_render_html.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        lib.cmark_node_free.argtypes = [ctypes.c_void_p]
        lib.cmark_parser_free.argtypes = [ctypes.c_void_p]
        self.libc = ctypes.CDLL(None)
        self.libc.free.argtypes = [ctypes.c_void_p]
        self.extensions = [lib.cmark_find_syntax_extension(name) for name in self.EXTENSIONS]
        assert all(self.extensions), "libcmark-gfm lacks an extension"

    def render_one(self, document):
        lib = self.lib
        parser = lib.cmark_parser_new(self.UNSAFE)
        for extension in self.extensions:
            lib.cmark_parser_attach_syntax_extension(parser, extension)
        data = document.encode()
        lib.cmark_parser_feed(parser, data, len(data))
        root = lib.cmark_parser_finish(parser)
        pointer = lib.cmark_render_html(root, self.UNSAFE, lib.cmark_parser_get_syntax_extensions(parser))
        text = ctypes.string_at(pointer).decode()
        self.libc.free(pointer)
        lib.cmark_node_free(root)
        lib.cmark_parser_free(parser)
        return text

    def render(self, documents):
        return [self.render_one(d) for d in documents]


class MarkdownItPy:
    def __init__(self):
        from markdown_it import MarkdownIt
        from mdit_py_plugins.tasklists import tasklists_plugin

        self.md = MarkdownIt("gfm-like").disable("linkify").use(tasklists_plugin)

    def render(self, documents):
        return [self.render_one(d) for d in documents]

    def render_one(self, document):
        # markdown-it-py 4.0 raises IndexError on some nested HTML blocks (its own bug): the failure
        # becomes its output, so that the document shows as a difference of its own.
        try:
            return self.md.render(document)
        except Exception as error:  # noqa: BLE001
            return "<p>markdown-it-py raised %s</p>" % type(error).__name__


VOID = {"br", "hr", "img", "input"}
BOOLEAN = {"checked", "disabled"}


class _Canonical(html.parser.HTMLParser):
    """Tags with sorted attributes, text with entities decoded; whitespace between and around tags
    collapsed, except inside `pre`. markdown-it-py's spellings become cmark-gfm's: `style="text-align:
    x"` is `align="x"`, boolean attributes have empty values, and the task-list classes go (see also
    `canonical`)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.pre = 0

    def attrs(self, tag, attrs):
        result = []
        for name, value in attrs:
            value = value or ""
            if name == "class" and "task-list" in value:
                continue
            if name == "style" and value.startswith("text-align:"):
                name, value = "align", value[len("text-align:"):]
            if name in BOOLEAN:
                value = ""
            result.append((name, value))
        return "".join(' %s="%s"' % (n, html.escape(v)) for n, v in sorted(result))

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self.pre += 1
        self.out.append("<%s%s>" % (tag, self.attrs(tag, attrs)))

    def handle_startendtag(self, tag, attrs):
        self.out.append("<%s%s>" % (tag, self.attrs(tag, attrs)))

    def handle_endtag(self, tag):
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag not in VOID:
            self.out.append("</%s>" % tag)

    def handle_data(self, data):
        text = html.escape(data, quote=False)
        self.out.append(text if self.pre else "\0" + text + "\0")

    def handle_comment(self, data):
        self.out.append("<!--%s-->" % data)

    def handle_decl(self, decl):
        self.out.append("<!%s>" % decl)

    def handle_pi(self, data):
        self.out.append("<?%s>" % data)

    def unknown_decl(self, data):
        self.out.append("<![%s]>" % data)


def canonical(text):
    parser = _Canonical()
    parser.feed(text)
    parser.close()
    joined = "".join(parser.out)
    # Text outside `pre` was marked with NULs: collapse its whitespace runs, and drop whitespace that
    # only separates tags.
    parts = joined.split("\0")
    result = []
    for i, part in enumerate(parts):
        if i % 2 == 1:
            part = re.sub(r"\s+", " ", part)
        result.append(part)
    joined = "".join(result)
    joined = re.sub(r"\s*(<(?:/?(?:p|li|ul|ol|blockquote|h[1-6]|table|thead|tbody|tr|th|td|hr|pre|div)\b[^>]*)>)\s*", r"\1", joined)
    # markdown-it-py's spellings of what cmark-gfm writes otherwise: `s` for `del`, and a loose task
    # item's checkbox inside its first paragraph instead of before it.
    joined = re.sub(r"<(/?)s>", r"<\1del>", joined)
    joined = re.sub(r"<li><p>(<input[^>]*>) ?", r"<li>\1<p>", joined)
    return joined.strip()
