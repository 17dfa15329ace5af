import ArgumentParser
import CadenceMarkdown
import Foundation

/// `cadence render`: render markdown to the terminal, HTML or a tree outline, through the
/// incremental parser.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render markdown to the terminal, HTML, or a tree outline.",
        discussion: """
            --strict parses CommonMark + GFM (tables, strikethrough, autolinks, task lists) without the citation \
            extension; HTML output then matches cmark-gfm. --chunk-size N feeds the incremental parser N characters \
            at a time; the output is the same for every N. Colour follows the terminal and NO_COLOR. The input \
            is parsed as it is read and each block is printed once it is final, so output streams and memory \
            holds only the blocks still open; input over --max-bytes stops with exit code 1 after the blocks \
            printed so far. --nul-separated renders many documents in one run (a differential tester's batch): \
            each NUL byte ends a document and its output, and --max-bytes applies to each document.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, ansi, tree
    }

    @Option(name: .long, help: "Output format: html, ansi or tree.")
    var to: Format = .ansi

    @Flag(name: .long, help: "CommonMark + GFM only: no citations.")
    var strict = false

    @Option(name: .long, help: "Terminal width for --to ansi, at least 20 (default: the terminal's, else 80).")
    var width: Int?

    @Flag(name: .long, help: "No escape codes in --to ansi output.")
    var plain = false

    @Option(name: .long, help: "The most markdown read, in bytes (default 16 MiB); more stops with an error.")
    var maxBytes: Int = 16 << 20

    @Flag(name: .long, help: "Read many documents, each ended by a NUL byte, and end each one's output with a NUL byte.")
    var nulSeparated = false

    @OptionGroup var input: InputOptions<RenderCommand>

    func validate() throws {
        if let width, width < 20 { throw ValidationError("--width must be at least 20") }
        if maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1") }
    }

    func run() throws {
        let file = try input.open()
        var rendering = newRendering()
        var tooLarge = false
        // Each chunk read is parsed, and the blocks it completes are printed and dropped, before the
        // next is read: memory holds what may still change (the open blocks, and any block whose link
        // label a later definition could still resolve), never more than `--max-bytes` of markdown.
        // A read that passes the limit is parsed up to it, so the blocks it completes before the limit
        // are printed too, whatever the read size. With `--nul-separated`, each NUL ends a document.
        try file.forEachChunk { bytes in
            var rest = bytes
            while nulSeparated, let end = rest.firstIndex(of: 0) {
                tooLarge = rendering.feed(UnsafeRawBufferPointer(rebasing: rest[..<end]))
                if tooLarge { return false }
                rendering.finish()
                FileHandle.standardOutput.write(Data([0]))
                rendering = newRendering()
                rest = UnsafeRawBufferPointer(rebasing: rest[(end + 1)...])
            }
            tooLarge = rendering.feed(rest)
            return !tooLarge
        }
        if tooLarge {
            FileHandle.standardError.write(
                Data(
                    ("cadence render: the markdown is larger than the limit of \(maxBytes) bytes; the blocks before "
                        + "it were printed. Raise --max-bytes to render more.\n").utf8))
            throw ExitCode.failure
        }
        // With `--nul-separated`, input that ends with a NUL has no document after it.
        if !(nulSeparated && rendering.isEmpty) { rendering.finish() }
    }

    private func newRendering() -> Rendering {
        Rendering(
            document: MarkdownDocument(options: strict ? .gfm : .default),
            output: Output(format: to, width: width ?? TerminalOutput.terminalWidth(), colors: TerminalOutput(plain: plain).styled),
            chunk: ChunkFeeder(size: input.chunkSize), maxBytes: maxBytes)
    }

    /// One document on its way from bytes read to output written.
    struct Rendering {
        var document: MarkdownDocument
        var output: Output
        var chunk: ChunkFeeder
        let maxBytes: Int
        private var text = UTF8Chunks()
        private var total = 0

        init(document: MarkdownDocument, output: Output, chunk: ChunkFeeder, maxBytes: Int) {
            self.document = document
            self.output = output
            self.chunk = chunk
            self.maxBytes = maxBytes
        }

        /// No byte read yet.
        var isEmpty: Bool { total == 0 }

        /// Parses `bytes` and writes the blocks they complete; `true` when the document passed
        /// `maxBytes` (then it is parsed up to the limit).
        mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            let allowed = min(bytes.count, maxBytes - total)
            total += bytes.count
            let tooLarge = total > maxBytes
            chunk.feed(text.decode(UnsafeRawBufferPointer(rebasing: bytes[..<allowed])), to: &document)
            if tooLarge { chunk.flush(to: &document) }
            output.write(document.takeCommitted())
            return tooLarge
        }

        /// The end of the document: writes its last blocks.
        mutating func finish() {
            chunk.feed(text.finish(), to: &document)
            chunk.flush(to: &document)
            output.write(document.finish().blocks)
        }
    }

    /// Renders top-level blocks as they commit, each batch continuing the last, so that the result is
    /// byte for byte the rendering of the whole tree.
    struct Output {
        let format: Format
        let width: Int
        let colors: Bool
        /// Top-level blocks written so far.
        private var written = 0

        init(format: Format, width: Int, colors: Bool) {
            self.format = format
            self.width = width
            self.colors = colors
        }

        mutating func write(_ blocks: [Block]) {
            guard !blocks.isEmpty else { return }
            var text: String
            switch format {
            case .html: text = HTMLRenderer(tagFilter: true).render(blocks)
            case .tree: text = TreeRenderer().render(blocks, firstIndex: written)
            case .ansi:
                text = ANSIRenderer(width: width, colors: colors).render(blocks)
                if written > 0 { text = "\n" + text }  // the blank line between top-level blocks
            }
            written += blocks.count
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Feeds the document `--chunk-size` characters at a time (everything at once without it).
    struct ChunkFeeder {
        let size: Int?
        private var chunk = ""
        private var count = 0

        init(size: Int?) { self.size = size }

        mutating func feed(_ text: String, to document: inout MarkdownDocument) {
            guard let size else {
                document.append(text)
                return
            }
            for character in text {
                chunk.append(character)
                count += 1
                if count == size { flush(to: &document) }
            }
        }

        mutating func flush(to document: inout MarkdownDocument) {
            document.append(chunk)
            chunk = ""
            count = 0
        }
    }

    /// Decodes UTF-8 that arrives in chunks as decoding it whole would: a character split between two
    /// chunks is held back until its end arrives, and invalid bytes become U+FFFD.
    struct UTF8Chunks {
        private var held: [UInt8] = []

        mutating func decode(_ bytes: UnsafeRawBufferPointer) -> String {
            var bytes = held + bytes
            held = []
            guard !bytes.isEmpty else { return "" }
            // A lead byte in the last three whose sequence is cut short waits for the next chunk. A
            // chunk boundary before a byte that is not a continuation byte is a boundary of the whole
            // decoding too, so invalid sequences are replaced exactly as in one pass.
            for back in 1...min(3, bytes.count) {
                let byte = bytes[bytes.count - back]
                guard byte & 0xC0 == 0x80 else {
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                    if length > back {
                        held = Array(bytes[(bytes.count - back)...])
                        bytes.removeLast(back)
                    }
                    break
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The end of the input: a character still cut short becomes U+FFFD.
        mutating func finish() -> String {
            defer { held = [] }
            return String(decoding: held, as: UTF8.self)
        }
    }
}

extension RenderCommand: ChunkedInputCommand {
    static let chunkSizeHelp = "Feed the parser N characters at a time."
    static let fileHelp = "The markdown file to read, or - for standard input."
}
