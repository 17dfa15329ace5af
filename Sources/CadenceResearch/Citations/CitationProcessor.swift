public import CadenceCore
import CadenceMarkdown

/// Checks the citations of a model's answer while it streams.
///
/// Feed it the model's text in whatever pieces they arrive; it returns what may be sent now:
/// - a citation split across pieces (`[`, `1`, `]`) is held back until it is complete, then sent whole;
/// - `[1, 2]` is sent as `[1][2]`, the form the protocol's renderers draw;
/// - a citation to a number that is not a source (`[9]` with 5 sources) is never sent, nor the
///   space before it when punctuation follows ("as shown [9]." → "as shown.");
/// - inside code spans and code fences, in links (`[1](url)`), reference definitions (`[1]: url`)
///   and after a backslash (`\[1]`), brackets are text and pass untouched;
/// - each citation sent is checked against the source it cites (``CitationSupport``), and
///   ``checks`` lists the results in the order the citations were sent.
///
/// The output is the same however the text is split, and each byte is handled in constant time
/// (amortized), so an n-byte answer costs O(n).
///
/// ```swift
/// var processor = CitationProcessor(sources: ["Resuming uses the Last-Event-ID header."])
/// var sent = processor.feed("Clients resume with the Last-Event-ID header [")
/// sent += processor.feed("1] and [7].")
/// sent += processor.finish()
/// // sent == "Clients resume with the Last-Event-ID header [1] and."
/// // processor.checks[0].supported == true, processor.dropped == [7]
/// ```
public struct CitationProcessor: Sendable {
    /// The checks of the citations sent so far (a sentence's checks are settled when it ends).
    public internal(set) var checks: [CitationCheck] = []
    /// The numbers of citations that were removed because they name no source, in order.
    public internal(set) var dropped: [Int] = []

    let sourceStems: [Set<String>]
    let supportThreshold: Double

    var out: [UInt8] = []
    var claims = CitationClaims()
    var ordinal = 0
    var context = StreamingCodeContext()
    /// Spaces not yet sent: they go with what follows, unless a dropped citation follows them.
    var heldSpace: [UInt8] = []
    /// A bracket that may become a citation.
    var candidate: Candidate?
    /// The last thing handled was a dropped citation: spaces collapse, punctuation eats the space before.
    var afterDrop = false
    /// The last byte sent was a space or a line feed, or nothing was sent yet.
    var sentSpace = true

    /// - Parameters:
    ///   - sources: the text of each source, numbered from 1 in this order.
    ///   - supportThreshold: the share of a claim's content words its source must contain.
    public init(sources: [String], supportThreshold: Double = CitationSupport.defaultThreshold) {
        sourceStems = sources.map(CitationSupport.stems)
        self.supportThreshold = supportThreshold
    }

    /// The next piece of the model's text; returns what may be sent now.
    public mutating func feed(_ text: String) -> String {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { consume(byte) }
        }
        return takeOutput()
    }

    /// The model's text has ended: returns what was still held and settles the last checks.
    public mutating func finish() -> String {
        context.endRun()
        if let candidate {
            self.candidate = nil
            if candidate.closed { resolve(candidate) } else { abandon(candidate) }
        }
        if !afterDrop { flushSpace() }
        heldSpace.removeAll()
        settle(claims.endSentence())
        return takeOutput()
    }

    private mutating func takeOutput() -> String {
        defer { out.removeAll(keepingCapacity: true) }
        // Whole characters only: bytes are held only when they are ASCII, so `out` ends on a boundary.
        return String(decoding: out, as: UTF8.self)
    }

    mutating func consume(_ byte: UInt8) {
        if context.endsRun(before: byte) {
            if context.endRun() { settle(claims.endSentence()) }
        }
        if context.inFence {
            context.fence(byte)
            send(byte, prose: false)
        } else if let candidate {
            self.candidate = nil
            extend(candidate, with: byte)
        } else {
            text(byte)
        }
    }

    /// Prose or a code span, no candidate open.
    mutating func text(_ byte: UInt8) {
        if context.escaped {
            context.escaped = false
            return send(byte)
        }
        if context.startsOrExtendsRun(byte) { return send(byte) }
        if context.inCodeSpan {
            if byte == .lineFeed && context.lineIsBlank { context.closeCodeSpan() }
            return send(byte)
        }
        switch byte {
        case .backslash:
            send(byte)
            context.escaped = true
        case .openBracket:
            candidate = Candidate(atLineStart: context.atLineStart)
            context.sawContent()
        case .space, .tab:
            if !(afterDrop && (!heldSpace.isEmpty || sentSpace)) { heldSpace.append(byte) }
            context.sawSpace()
        default:
            if afterDrop && Self.closesClause(byte) { heldSpace.removeAll() }
            send(byte)
        }
    }

    static func closesClause(_ byte: UInt8) -> Bool {
        switch byte {
        case .lineFeed, UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"),
            UInt8(ascii: "?"), UInt8(ascii: ")"), .closeBracket, UInt8(ascii: "}"):
            true
        default: false
        }
    }

    /// Sends one byte (after any held spaces); prose also feeds the claim tracker.
    mutating func send(_ byte: UInt8, prose: Bool = true) {
        flushSpace()
        out.append(byte)
        sentSpace = byte.isWhitespace
        afterDrop = false
        if prose { settle(claims.append(byte)) }
        context.sent(byte)
    }

    mutating func flushSpace() {
        guard !heldSpace.isEmpty else { return }
        out.append(contentsOf: heldSpace)
        for space in heldSpace { settle(claims.append(space)) }
        sentSpace = true
        heldSpace.removeAll(keepingCapacity: true)
    }

    mutating func settle(_ settled: [CitationClaims.Claim]) {
        for claim in settled {
            let score = CitationSupport.score(claim: claim.stems, in: sourceStems[claim.source - 1])
            checks.append(
                CitationCheck(
                    ordinal: claim.ordinal, source: claim.source, sentence: claim.text.clipped(to: 300),
                    score: score, supported: score >= supportThreshold))
        }
    }
}
