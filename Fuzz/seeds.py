#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target into a folder.

Usage: seeds.py TARGET OUTDIR

Seeds come from ../shared/conformance (SSE cases, CommonMark and GFM examples), the captured
provider streams in ../shared/fixtures/providers, the answers beside the markdown tests, and a few
hand-written inputs. Each seed starts with the two header bytes every oracle reads first
(options 0, split seed 0: see Sources/CadenceOracles/FuzzInput.swift), then the real bytes.
"""
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
HEADER = b"\x00\x00"


def sse_cases():
    cases = json.loads((SHARED / "conformance" / "sse-public.json").read_text())
    for case in cases if isinstance(cases, list) else cases.get("cases", []):
        if "stream" in case:
            yield case["stream"].encode()
        elif "stream_hex" in case:
            yield bytes.fromhex(case["stream_hex"])


def markdown_examples():
    for name in ("commonmark-0.31.2.json", "gfm-extensions-0.29.json"):
        for example in json.loads((SHARED / "conformance" / name).read_text()):
            yield example["markdown"].encode()
    for answer in sorted((ROOT / "Tests" / "CadenceMarkdownTests" / "Fixtures").rglob("*.md")):
        yield answer.read_bytes()


def markdown_units():
    """Units that the work oracle repeats: unclosed openers, then every markdown example."""
    yield from (b"a <!-- ", b"a <?", b"a <![CDATA[", b"a <!A", b"a@", b"_www.a", b"[", b"*a", b"`", b"<a ", b">")
    yield from markdown_examples()


def provider_streams():
    for path in sorted((SHARED / "fixtures" / "providers").iterdir()):
        if path.name != "index.json":
            yield path.read_bytes()


def research_events():
    events = [
        {"type": "token", "content": "Hello **world** [1]"},
        {"type": "tier_selected", "tier": "deep", "reason": "many sources"},
        {"type": "searching", "source": "docs"},
        {"type": "search_complete", "count": 3, "source": "docs"},
        {"type": "sources_ready", "sources": [{"id": "1", "title": "T", "url": "https://x", "snippet": "s"}]},
        {"type": "planning_complete", "message": "plan", "queries": ["a", "b"]},
        {"type": "round_complete", "round": 1, "sources": 2, "status": "ok"},
        {"type": "reflection_complete", "sufficient": True},
        {"type": "complete", "sources": [], "metadata": {"engine": "corpus", "n": 1.5e3}, "follow_ups": ["why?"]},
        {"type": "error", "code": "overloaded", "message": "try again"},
        {"type": "future_event", "nested": {"a": [1, None, False, "\u00e9\ud83d\ude00"]}},
    ]
    stream = b""
    for sequence, event in enumerate(events, 1):
        frame = f"event: {event['type']}\nid: {sequence}\ndata: {json.dumps(event)}\n\n".encode()
        yield frame
        stream += frame
    yield stream + b": flush-tokens\n\n: keepalive\n\n"


def keys():
    esc = "\x1b"
    yield f"héllo 日本😀{esc}[A{esc}[B{esc}OH{esc}[1;5C{esc}[3~\x7f\x03".encode()
    yield f"{esc}[200~pasted\r\nline {esc}[A{esc}[201~{esc}[<64;10;5M{esc}[<0;1;1m{esc}".encode()


def research_replies():
    yield b'{"queries": ["resume interrupted stream", "Last-Event-ID"]}'
    yield b'{"sufficient": false, "missing": "retry delays", "queries": [{"query": "backoff"}]}'
    yield b'Sure! Here is the plan:\n```json\n{"queries": ["bm25 \\"ranking\\"", "caf\\u00e9"]}\n```'
    yield b'{not json} then {"queries": ["a"]} and {"b": 1}'
    yield b'{"queries":"' + b"}" * 200
    yield b"{" * 100 + b"}" * 50


SEEDS = {
    "sse": sse_cases,
    "ndjson": provider_streams,
    "openai-chat": provider_streams,
    "openai-responses": provider_streams,
    "anthropic": provider_streams,
    "gemini": provider_streams,
    "ollama": provider_streams,
    "research": research_events,
    "research-reply": research_replies,
    "markdown": markdown_examples,
    "markdown-work": markdown_units,
    "pacer": markdown_examples,
    "keys": keys,
}


def main():
    target, out = sys.argv[1], pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for seed in SEEDS[target]():
        data = HEADER + seed
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)


if __name__ == "__main__":
    main()
