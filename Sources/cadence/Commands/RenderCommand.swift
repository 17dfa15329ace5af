import ArgumentParser
import CadenceMarkdown
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cadence render`: render markdown to the terminal, HTML or a tree outline, through the
/// incremental parser.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render markdown to the terminal, HTML, or a tree outline.",
        discussion: """
            --strict parses CommonMark + GFM (tables, strikethrough, autolinks, task lists) without the citation \
            extension; HTML output then matches cmark-gfm. --chunk-size N feeds the incremental parser N characters \
            at a time; the output is the same for every N. Colour follows the terminal and NO_COLOR.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, ansi, tree
    }

    @Option(name: .long, help: "Output format: html, ansi or tree.")
    var to: Format = .ansi

    @Flag(name: .long, help: "CommonMark + GFM only: no citations.")
    var strict = false

    @Option(name: .long, help: "Feed the parser N characters at a time.")
    var chunkSize: Int?

    @Option(name: .long, help: "Terminal width for --to ansi (default: the terminal's, else 80).")
    var width: Int?

    @Flag(name: .long, help: "No escape codes in --to ansi output.")
    var plain = false

    @Argument(help: "The markdown file to read, or - for standard input.")
    var file: String = "-"

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        if let width, width < 20 { throw ValidationError("--width must be at least 20") }
    }

    func run() throws {
        let text = String(decoding: try InputFile.read(file), as: UTF8.self)
        var document = MarkdownDocument(options: strict ? .gfm : .default)
        if let chunkSize {
            var chunk = ""
            var count = 0
            for character in text {
                chunk.append(character)
                count += 1
                if count == chunkSize {
                    document.append(chunk)
                    chunk = ""
                    count = 0
                }
            }
            document.append(chunk)
        } else {
            document.append(text)
        }
        let tree = document.finish()
        let output: String
        switch to {
        case .html: output = HTMLRenderer(tagFilter: true).render(tree)
        case .tree: output = TreeRenderer().render(tree)
        case .ansi:
            output = ANSIRenderer(width: width ?? TerminalOutput.terminalWidth(), colors: Self.colorsAllowed(plain: plain))
                .render(tree)
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }


    /// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static func colorsAllowed(plain: Bool) -> Bool {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return !plain && !noColor && isatty(STDOUT_FILENO) == 1
    }
}
