import CadenceCore
import Foundation
import Testing

/// One captured provider stream from `../shared/fixtures/providers/`, described by its `index.json`.
struct ProviderFixture: Sendable, CustomTestStringConvertible {
    /// The folder holding the captures: `shared` sits beside the repository root, which is three
    /// levels above this file.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/providers")

    /// Every fixture of the index; empty if the index cannot be read (a test checks that it can).
    static let all: [ProviderFixture] = (try? loadIndex()) ?? []

    let file: String
    /// The entry of `index.json`.
    let entry: JSONValue
    /// The bytes to replay: the file, with `chunks-jsonl` payloads framed as `data: …\n\n`.
    let bytes: [UInt8]

    var testDescription: String { file }

    /// The stream decoded whole with its dialect named, once per test run; no events if it threw.
    var wholeDecoding: ProviderDecoding {
        Self.wholeDecodings[file] ?? ProviderDecoding(events: [])
    }

    private static let wholeDecodings: [String: ProviderDecoding] = Dictionary(
        uniqueKeysWithValues: all.map { fixture in
            let decoding = try? ModelStreamDecoder.providerDecoding(fixture.bytes, dialect: fixture.dialect)
            return (fixture.file, decoding ?? ProviderDecoding(events: []))
        })
    var format: String { entry["format"]?.stringValue ?? "" }
    var expectedText: String { entry["expected_text"]?.stringValue ?? "" }

    var dialect: ModelDialect {
        let provider = entry["provider"]?.stringValue ?? ""
        if provider.hasPrefix("anthropic") { return .anthropic }
        if provider.hasPrefix("google-gemini") { return .gemini }
        if provider.hasPrefix("ollama") { return .ollama }
        if provider == "openai-responses" { return .openAIResponses }
        return .openAIChat  // openai-chat-completions, and the OpenAI-compatible ones
    }

    /// The finish of choice 0 the index implies, from the provider's own value.
    var expectedFinish: FinishReason {
        if entry["expected_error"] != nil { return .error }
        let raw =
            entry["finish_reason"]?["0"]?.stringValue ?? entry["finish_reason"]?.stringValue
            ?? entry["stop_reason"]?.stringValue ?? entry["final_status"]?.stringValue
            ?? (entry["done_seen"]?.boolValue == true ? "stop" : nil)
        switch raw {
        case "stop", "end_turn", "STOP", "completed": return .stop
        case "length", "max_tokens", "MAX_TOKENS": return .length
        case "tool_calls", "tool_use": return .toolCalls
        default: return .other(raw ?? "missing from index")
        }
    }

    /// The end offsets of the stream's records: SSE events (after their blank line) or NDJSON lines.
    var recordEnds: [Int] {
        var ends: [Int] = []
        let newline = UInt8(ascii: "\n")
        for index in bytes.indices where bytes[index] == newline {
            if dialect.usesLineFraming {
                ends.append(index + 1)
            } else if index >= 1, bytes[index - 1] == newline {
                ends.append(index + 1)
            } else if index >= 3, bytes[(index - 3)...index].elementsEqual("\r\n\r\n".utf8) {
                ends.append(index + 1)
            }
        }
        if ends.last != bytes.count { ends.append(bytes.count) }
        return ends
    }

    private static func loadIndex() throws -> [ProviderFixture] {
        let index = try String(contentsOf: folder.appendingPathComponent("index.json"), encoding: .utf8)
        return try (JSONValue(parsing: index).arrayValue ?? []).map { entry in
            let file = entry["file"]?.stringValue ?? ""
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            var bytes = [UInt8](data)
            if entry["format"]?.stringValue == "chunks-jsonl" {
                let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                bytes = Array(lines.map { "data: \($0)\n\n" }.joined().utf8)
            }
            return ProviderFixture(file: file, entry: entry, bytes: bytes)
        }
    }
}

/// What a model stream decoded to, gathered for assertions.
struct ProviderDecoding: Sendable {
    var events: [ModelEvent]

    func text(choice: Int = 0) -> String {
        events.map { if case .text(let text, choice) = $0 { text } else { "" } }.joined()
    }

    func reasoning(choice: Int = 0) -> String {
        events.map { if case .reasoning(let text, choice) = $0 { text } else { "" } }.joined()
    }

    func refusal(choice: Int = 0) -> String {
        events.map { if case .refusal(let text, choice) = $0 { text } else { "" } }.joined()
    }

    func finishes(choice: Int = 0) -> [FinishReason] {
        events.compactMap { if case .finish(let reason, choice) = $0 { reason } else { nil } }
    }

    var errors: [ModelError] {
        events.compactMap { if case .error(let error) = $0 { error } else { nil } }
    }

    var usages: [ModelUsage] {
        events.compactMap { if case .usage(let usage) = $0 { usage } else { nil } }
    }

    /// Tool calls assembled from their fragments, in order of first appearance.
    var toolCalls: [ToolCallDelta] {
        var calls: [ToolCallDelta] = []
        for case .toolCall(let fragment) in events {
            if let at = calls.firstIndex(where: { $0.choice == fragment.choice && $0.index == fragment.index }) {
                calls[at].id = calls[at].id ?? fragment.id
                calls[at].name = calls[at].name ?? fragment.name
                calls[at].argumentsDelta += fragment.argumentsDelta
            } else {
                calls.append(fragment)
            }
        }
        return calls
    }
}

extension ModelStreamDecoder {
    /// Decodes `bytes` in chunks of `chunkSize` bytes, then finishes.
    static func providerDecoding(
        _ bytes: [UInt8], dialect: ModelDialect?, chunkSize: Int = .max
    ) throws -> ProviderDecoding {
        var decoder = dialect.map { ModelStreamDecoder(dialect: $0) } ?? .autoDetecting()
        var events: [ModelEvent] = []
        var start = 0
        while start < bytes.count {
            let end = start + min(chunkSize, bytes.count - start)
            events += try decoder.feed(bytes[start..<end])
            start = end
        }
        events += try decoder.finish()
        return ProviderDecoding(events: events)
    }

    /// Decodes a string whole.
    static func providerDecoding(_ text: String, dialect: ModelDialect?) throws -> ProviderDecoding {
        try providerDecoding(Array(text.utf8), dialect: dialect)
    }
}
