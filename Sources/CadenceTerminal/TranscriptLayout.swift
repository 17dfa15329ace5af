import CadenceCore
import CadenceMarkdown

/// Turns the conversation into screen lines at a width: for each exchange, oldest first, the
/// question, a status line (a spinner and the research stage while it runs; "cancelled",
/// "timed out — partial answer" or "failed: …" after), the model's reasoning (dimmed while it
/// streams, one folded line once the answer starts), the answer's markdown rendered by
/// `ANSIRenderer`, a refusal and the tool calls (``ModelOutputText``), the numbered sources and,
/// once complete, the follow-up questions.
///
/// The lines are a pure function of the snapshot, the width and the spinner frame. The layout
/// keeps, per answer, the rendered lines of its committed blocks (which never change), so a frame
/// renders only the open tail of a growing answer, and the lines of the whole exchange for its
/// ``ExchangeSnapshot/version``, so an exchange that did not change is not laid out again; a new
/// width drops them all and re-wraps.
///
/// ```swift
/// var layout = TranscriptLayout(colors: true)
/// let lines = layout.lines(for: TranscriptSnapshot(chat), width: 80, spinnerFrame: 3)
/// ```
public struct TranscriptLayout: Sendable {
    /// The spinner's frames, one per ``spinnerInterval``.
    public static let spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    public static let spinnerInterval = Duration.milliseconds(100)

    /// The spinner frame to show at `time` (from any fixed origin).
    ///
    /// ```swift
    /// TranscriptLayout.spinnerFrame(at: .milliseconds(250))   // 2
    /// ```
    public static func spinnerFrame(at time: Duration) -> Int {
        Int(time / spinnerInterval)
    }

    /// Rendered lines of one answer's committed blocks.
    struct Cache: Sendable {
        var blocks: [[String]] = []
        /// The last committed block rendered, to notice an answer replaced under the same id.
        var lastBlock: Block?
        /// How citations were drawn: when the sources or the checks change, every block is drawn again.
        var citations: CitationDisplay
        /// The ordinal of the first citation number after the cached blocks.
        var nextOrdinal = 1
        /// The exchange's lines, for the version (and the spinner frame, while it runs) they show.
        var laidOut: (version: Int, spinner: Int?, lines: [String])?

        init(citations: CitationDisplay) { self.citations = citations }
    }

    public var colors: Bool
    /// How many blocks have been rendered since the layout was made (for tests and profiling).
    public private(set) var renderedBlockCount = 0
    private var caches: [String: Cache] = [:]
    private var cacheWidth = 0

    public init(colors: Bool = true) {
        self.colors = colors
    }

    /// Every line of the conversation, exchanges separated by a blank line.
    public mutating func lines(for transcript: TranscriptSnapshot, width: Int, spinnerFrame: Int = 0) -> [String] {
        let ids = Set(transcript.exchanges.map(\.id))
        caches = caches.filter { ids.contains($0.key) }
        var out: [String] = []
        for (index, exchange) in transcript.exchanges.enumerated() {
            if index > 0 { out.append("") }
            out += lines(for: exchange, width: width, spinnerFrame: spinnerFrame)
        }
        return out
    }

    /// The lines of one exchange: laid out again only when its version, the width or (while it runs)
    /// the spinner frame changed.
    public mutating func lines(for exchange: ExchangeSnapshot, width: Int, spinnerFrame: Int = 0) -> [String] {
        let width = max(width, 1)
        if width != cacheWidth {
            caches.removeAll()
            cacheWidth = width
        }
        let frames = Self.spinnerFrames.count
        let spinner = exchange.isRunning ? ((spinnerFrame % frames) + frames) % frames : nil
        if let version = exchange.version, let laidOut = caches[exchange.id]?.laidOut, laidOut.version == version,
            laidOut.spinner == spinner
        {
            return laidOut.lines
        }
        let out = layOut(exchange, width: width, spinnerFrame: spinnerFrame)
        if let version = exchange.version { caches[exchange.id]?.laidOut = (version, spinner, out) }
        return out
    }

    private mutating func layOut(_ exchange: ExchangeSnapshot, width: Int, spinnerFrame: Int) -> [String] {
        let style = SGR(colors: colors)
        var out = DisplayWidth.wrap("› " + exchange.question, width: width, indent: "  ").map(style.bold)
        if let status = statusLine(exchange, spinnerFrame: spinnerFrame, style: style) {
            out += DisplayWidth.wrap(status.text, width: width).map(status.paint)
        }
        out += reasoningLines(exchange, width: width, style: style)
        let body = bodyLines(exchange, width: width)
        if !body.isEmpty {
            out.append("")
            out += body
        }
        out += refusalAndToolCallLines(exchange, width: width, style: style)
        out += sourceLines(exchange, width: width, style: style)
        out += followUpLines(exchange, width: width, style: style)
        return out
    }

    // MARK: Parts

    private func statusLine(
        _ exchange: ExchangeSnapshot, spinnerFrame: Int, style: SGR
    )
        -> (text: String, paint: (String) -> String)?
    {
        switch exchange.phase {
        case .researching(let stage):
            let frames = Self.spinnerFrames
            let spinner = frames[((spinnerFrame % frames.count) + frames.count) % frames.count]
            return (spinner + " " + (stage ?? "Thinking…"), style.cyan)
        case .completed: return exchange.researchSummary.map { ("✓ " + $0, style.dim) }
        case .cancelled: return ("cancelled", style.dim)
        case .timedOut: return ("timed out — partial answer", style.dim)
        case .interrupted: return ("interrupted — partial answer", style.dim)
        case .failed(let message): return ("failed: " + message, style.red)
        }
    }

    /// The answer's markdown: committed blocks from the cache, the tail rendered now.
    private mutating func bodyLines(_ exchange: ExchangeSnapshot, width: Int) -> [String] {
        let blocks = exchange.document.blocks
        let committed = min(exchange.committedBlockCount, blocks.count)
        var cache = caches[exchange.id] ?? Cache(citations: exchange.citations)
        if cache.blocks.count > committed
            || (cache.lastBlock != nil && blocks[cache.blocks.count - 1] != cache.lastBlock)
            || cache.citations != exchange.citations
        {
            // The answer was replaced (a retry), its text rewritten, or its sources or checks arrived.
            cache = Cache(citations: exchange.citations)
        }
        while cache.blocks.count < committed {
            let block = blocks[cache.blocks.count]
            cache.blocks.append(render(block, width: width, citations: cache.citations.advanced(by: cache.nextOrdinal - 1)))
            cache.nextOrdinal += CitationDisplay.citationCount(in: [block])
            cache.lastBlock = block
        }
        caches[exchange.id] = cache
        var out: [String] = []
        for (index, lines) in cache.blocks.enumerated() {
            if index > 0 { out.append("") }
            out += lines
        }
        var ordinal = cache.nextOrdinal
        for block in blocks[committed...] {
            if !out.isEmpty { out.append("") }
            out += render(block, width: width, citations: cache.citations.advanced(by: ordinal - 1))
            ordinal += CitationDisplay.citationCount(in: [block])
        }
        return out
    }

    private mutating func render(_ block: Block, width: Int, citations: CitationDisplay) -> [String] {
        renderedBlockCount += 1
        let text = ANSIRenderer(width: width, colors: colors, citations: citations).render([block])
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The reasoning, dimmed, while the model reasons; then one folded line.
    private func reasoningLines(_ exchange: ExchangeSnapshot, width: Int, style: SGR) -> [String] {
        guard !exchange.reasoning.isEmpty else { return [] }
        guard exchange.reasoningSpan.isOpen, exchange.isRunning else {
            return [style.dim(DisplayWidth.fit(ModelOutputText.foldedLine(exchange.reasoningSpan), to: width))]
        }
        return Self.wrapParagraphs(exchange.reasoning, width: width).map(style.dim)
    }

    /// Model text wrapped at `width`, each of its lines on its own (the wrap joins words by spaces only).
    private static func wrapParagraphs(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { DisplayWidth.wrap(String($0), width: width) }
    }

    /// The refusal, labelled, then one line per tool call.
    private func refusalAndToolCallLines(_ exchange: ExchangeSnapshot, width: Int, style: SGR) -> [String] {
        var out: [String] = []
        if !exchange.refusal.isEmpty {
            let label = ModelOutputText.refusalLabel
            let lines = Self.wrapParagraphs(label + exchange.refusal, width: width)
            out += [""] + lines.enumerated().map { index, line in
                index == 0 && line.hasPrefix(label) ? style.bold(label) + line.dropFirst(label.count) : line
            }
        }
        if !exchange.toolCalls.isEmpty {
            out.append("")
            out += exchange.toolCalls.map { style.cyan(ModelOutputText.toolCallLine($0, width: width)) }
        }
        return out
    }

    /// "Sources", then `[n] Title — url`, numbered as the citations in the text are.
    private func sourceLines(_ exchange: ExchangeSnapshot, width: Int, style: SGR) -> [String] {
        guard !exchange.sources.isEmpty else { return [] }
        var out = ["", style.bold("Sources")]
        for (index, source) in exchange.sources.enumerated() {
            let number = "[\(Source.citationNumber(of: source, at: index))]"
            let (title, url) = (TerminalSanitizer.printable(source.listedTitle), TerminalSanitizer.printable(source.url))
            let plain = "  \(number) \(title) — \(url)"
            if DisplayWidth.of(plain) <= width {
                out.append("  \(style.cyan(number)) \(title) — \(style.dim(url))")
            } else {
                out += DisplayWidth.wrap(plain, width: width, indent: "      ")
            }
        }
        return out
    }

    private func followUpLines(_ exchange: ExchangeSnapshot, width: Int, style: SGR) -> [String] {
        guard !exchange.followUps.isEmpty, exchange.phase == .completed || exchange.phase == .timedOut else {
            return []
        }
        var out = ["", style.bold("Follow-up questions")]
        for question in exchange.followUps {
            out += DisplayWidth.wrap("  • " + question, width: width, indent: "    ")
        }
        return out
    }
}
