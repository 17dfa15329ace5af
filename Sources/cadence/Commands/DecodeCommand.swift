import ArgumentParser
import CadenceCore
import Foundation

/// `cadence decode`: inspect a raw captured stream.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode a captured stream and print one JSON object per line.",
        discussion: """
            --events prints each dispatched SSE event as {"event":…,"data":…,"id":…} (id is the last event ID \
            at dispatch), {"retry":N} for each valid retry field, and {"comment":…} with --comments.
            """
    )

    @Flag(name: .long, help: "Print raw SSE events.")
    var events = false

    @Option(name: .long, help: "Decode a model provider's stream: auto, openai-chat, openai-responses, anthropic, gemini, ollama.")
    var dialect: String?

    @Flag(name: .long, help: "With --events, also print comments.")
    var comments = false

    @Option(name: .long, help: "Feed the decoder N bytes at a time (to check chunking never matters).")
    var chunkSize: Int?

    @Option(name: .long, help: "The longest line accepted, in bytes.")
    var maxLineBytes: Int?

    @Option(name: .long, help: "The largest event accepted, in bytes.")
    var maxEventBytes: Int?

    @Argument(help: "The file to read, or - for standard input.")
    var file: String = "-"

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        switch (events, dialect) {
        case (false, nil): throw ValidationError("say what to decode: --events, or --dialect NAME")
        case (true, .some): throw ValidationError("give either --events or --dialect, not both")
        case (false, .some(let name)) where name != "auto" && ModelDialect(rawValue: name) == nil:
            let names = ["auto"] + ModelDialect.allCases.map(\.rawValue)
            throw ValidationError("unknown dialect '\(name)'; use one of \(names.joined(separator: ", "))")
        default: break
        }
    }

    func run() throws {
        let bytes = try InputFile.read(file)
        if let dialect {
            try decodeModelStream(bytes, dialect: dialect)
            return
        }
        var limits = SSELimits.default
        if let maxLineBytes { limits.maxLineBytes = maxLineBytes }
        if let maxEventBytes { limits.maxEventBytes = maxEventBytes }
        var decoder = SSEDecoder(limits: limits)
        let step = chunkSize ?? max(bytes.count, 1)
        var offset = 0
        var items: [SSEItem] = []
        do {
            while offset < bytes.count {
                let end = min(offset + step, bytes.count)
                try bytes[offset..<end].withUnsafeBytes { try decoder.feed($0, into: &items) }
                items.forEach(print(item:))
                items.removeAll(keepingCapacity: true)
                offset = end
            }
            try decoder.finish().forEach(print(item:))
        } catch {
            // The events decoded before the error are still printed.
            items.forEach(print(item:))
            FileHandle.standardError.write(Data("cadence decode: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Prints one normalized model event per line, as JSON with a `"kind"`.
    private func decodeModelStream(_ bytes: [UInt8], dialect: String) throws {
        var decoder =
            ModelDialect(rawValue: dialect).map { ModelStreamDecoder(dialect: $0) } ?? .autoDetecting()
        let step = chunkSize ?? max(bytes.count, 1)
        var offset = 0
        do {
            while offset < bytes.count {
                let end = min(offset + step, bytes.count)
                for event in try decoder.feed(bytes[offset..<end]) { Swift.print(event.jsonLine()) }
                offset = end
            }
            for event in try decoder.finish() { Swift.print(event.jsonLine()) }
        } catch {
            FileHandle.standardError.write(Data("cadence decode: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func print(item: SSEItem) {
        let line: String
        switch item {
        case .event(let event):
            line = "{\"event\":\(JSONValue.string(event.type).jsonText),\"data\":\(JSONValue.string(event.data).jsonText),\"id\":\(JSONValue.string(event.id).jsonText)}"
        case .retry(let milliseconds):
            line = "{\"retry\":\(milliseconds)}"
        case .comment(let text):
            guard comments else { return }
            line = "{\"comment\":\(JSONValue.string(text).jsonText)}"
        }
        Swift.print(line)
    }
}

/// Reads a whole input file, or standard input for `-`.
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path): no such file, or not readable")
        }
        return Array(data)
    }
}
