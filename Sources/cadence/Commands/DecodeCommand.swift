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
            at dispatch), {"retry":N} for each valid retry field, and {"comment":…} with --comments. \
            The input is decoded as it is read, so output appears as it streams in and memory stays near \
            the limits whatever the input's size (--max-line-bytes, --max-event-bytes, in both modes). A line \
            or event over a limit stops with exit code 1 and the error on stderr, after everything decoded \
            before it.
            """
    )

    @Option(name: .long, help: "Decode a model provider's stream: auto, openai-chat, openai-responses, anthropic, gemini, ollama.")
    var dialect: String?

    @Flag(name: .long, help: "Print raw SSE events.")
    var events = false

    @Flag(name: .long, help: "With --events, also print comments.")
    var comments = false

    @OptionGroup var sseLimits: SSELimitOptions

    @OptionGroup var input: InputOptions<DecodeCommand>

    func validate() throws {
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
        let file = try input.open()
        if let dialect {
            try decodeModelStream(file, dialect: dialect)
            return
        }
        var decoder = SSEDecoder(limits: sseLimits.limits)
        var items: [SSEItem] = []
        var failure: SSEDecoderError?
        // Each chunk is decoded and printed before the next is read: memory holds one chunk, the
        // decoder's unfinished line and event (bounded by `limits`), and the event being printed.
        try file.forEachChunk(atMost: input.chunkSize ?? InputFile.readSize) { bytes in
            do throws(SSEDecoderError) { try decoder.feed(bytes, into: &items) } catch { failure = error }
            // The events decoded before an error are still printed.
            items.forEach(print(item:))
            items.removeAll(keepingCapacity: true)
            Self.flushOutput()
            return failure == nil
        }
        if failure == nil {
            do { _ = try decoder.finish() } catch { failure = error }
        }
        if let failure {
            throw Self.stop(SSELimitOptions.message(failure.code, limit: failure.limit))
        }
    }

    /// Prints one normalized model event per line, as JSON with a `"kind"`, as the input streams in.
    private func decodeModelStream(_ file: InputFile, dialect: String) throws {
        let named = ModelDialect(rawValue: dialect)
        var decoder =
            named.map { ModelStreamDecoder(dialect: $0, limits: sseLimits.limits) }
            ?? .autoDetecting(limits: sseLimits.limits)
        var failure: ModelStreamError?
        var check = DialectCheck()
        // Auto-detection that gave up: the decoder reports it as an event and skips the rest.
        var undetected: ModelError?
        func emit(_ events: [ModelEvent]) {
            for event in events {
                check.saw(event)
                if case .error(let error) = event, error.code == ModelError.unknownDialect { undetected = error }
                Swift.print(event.jsonLine())
            }
        }
        try file.forEachChunk(atMost: input.chunkSize ?? InputFile.readSize) { bytes in
            if named != nil { check.keep(bytes) }
            do throws(ModelStreamError) {
                emit(try decoder.feed(bytes))
            } catch {
                failure = error
            }
            Self.flushOutput()
            return failure == nil && undetected == nil
        }
        if failure == nil, undetected == nil {
            do throws(ModelStreamError) {
                emit(try decoder.finish())
            } catch {
                failure = error
            }
        }
        if let failure {
            throw Self.stop(SSELimitOptions.message(failure.code, limit: failure.limit))
        }
        if let undetected {
            throw Self.stop("\(ModelError.unknownDialect): \(undetected.message); give it with --dialect NAME")
        }
        if let named, let warning = check.warning(named) {
            FileHandle.standardError.write(Data("cadence decode: \(warning)\n".utf8))
        }
    }

    /// Whether a stream decoded with a dialect the user named looks like another provider's: a
    /// decoder skips what it does not know, so an Anthropic capture read as OpenAI Chat printed only
    /// an empty usage and a `truncated` finish, and nothing said why.
    struct DialectCheck {
        /// The start of the input, for ``ModelDialect/detect(_:isComplete:)``.
        private var prefix: [UInt8] = []
        private var complete = true
        private var sawContent = false
        static let prefixLimit = 16 << 10

        mutating func keep(_ bytes: UnsafeRawBufferPointer) {
            let room = Self.prefixLimit - prefix.count
            if bytes.count > room { complete = false }
            prefix.append(contentsOf: bytes.prefix(max(room, 0)))
        }

        mutating func saw(_ event: ModelEvent) {
            switch event {
            case .text, .reasoning, .refusal, .toolCall, .error: sawContent = true
            case .usage, .finish: break
            }
        }

        /// A warning when nothing but usage and finish came out and the input's start says it is in
        /// another dialect.
        func warning(_ named: ModelDialect) -> String? {
            guard !sawContent, let detected = ModelDialect.detect(prefix, isComplete: complete), detected != named
            else { return nil }
            return "warning: nothing decoded as \(named.rawValue); the input looks like the "
                + "\(detected.rawValue) dialect (try --dialect \(detected.rawValue), or --dialect auto)"
        }
    }

    /// Says why decoding stopped, on one line of stderr; the caller exits with failure.
    private static func stop(_ reason: String) -> ExitCode {
        FileHandle.standardError.write(Data("cadence decode: \(reason)\n".utf8))
        return ExitCode.failure
    }

    private func print(item: SSEItem) {
        let line: String
        switch item {
        case .event(let event):
            let type = JSONValue.string(event.type).jsonText
            let id = JSONValue.string(event.id).jsonText
            guard event.data.utf8.count <= Self.printedPiece else {
                Swift.print("{\"event\":\(type),\"data\":\"", terminator: "")
                Self.printEscaped(event.data)
                Swift.print("\",\"id\":\(id)}")
                return
            }
            line = "{\"event\":\(type),\"data\":\(JSONValue.string(event.data).jsonText),\"id\":\(id)}"
        case .retry(let milliseconds):
            line = "{\"retry\":\(milliseconds)}"
        case .comment(let text):
            guard comments else { return }
            line = "{\"comment\":\(JSONValue.string(text).jsonText)}"
        }
        Swift.print(line)
    }

    /// Hands what this chunk printed to the reader now. In a pipe `print` buffers stdout, so the
    /// events of a live stream (`curl -N … | cadence decode --events`) waited for the buffer to fill
    /// or the input to end.
    static func flushOutput() {
        fflush(nil)  // every output stream, stdout among them
    }

    /// Data longer than this is escaped and printed a piece at a time.
    static let printedPiece = 64 << 10

    /// Prints `text` as the inside of a JSON string, escaping a piece at a time, so that an event of
    /// many megabytes is not copied whole twice more (escaped, then joined into a line) while printing.
    /// Pieces end between Unicode scalars, and JSON escapes one scalar at a time, so the result is the
    /// same as escaping the whole text.
    static func printEscaped(_ text: String) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        while start < scalars.endIndex {
            let end = scalars.index(start, offsetBy: printedPiece, limitedBy: scalars.endIndex) ?? scalars.endIndex
            let escaped = JSONValue.string(String(scalars[start..<end])).jsonText
            Swift.print(escaped.dropFirst().dropLast(), terminator: "")
            start = end
        }
    }
}

extension DecodeCommand: ChunkedInputCommand {
    static let chunkSizeHelp = "Feed the decoder at most N bytes at a time (to check chunking never matters)."
    static let fileHelp = "The file to read, or - for standard input."
}
