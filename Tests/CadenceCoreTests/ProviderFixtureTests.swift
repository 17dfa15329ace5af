import CadenceCore
import Foundation
import Testing

/// Every captured stream of `../shared/fixtures/providers/` decodes to what its index says, at every
/// chunk size, with the dialect named or detected.
struct ProviderFixtureTests {
    static let chunkSizes = [1, 2, 3, 7, 64, Int.max]

    @Test func theIndexListsEveryCapture() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: ProviderFixture.folder.path)
            .filter { $0 != "index.json" }
        #expect(!files.isEmpty)
        #expect(Set(ProviderFixture.all.map(\.file)) == Set(files))
    }

    @Test(arguments: ProviderFixture.all, chunkSizes)
    func decodesToTheIndexedAnswer(fixture: ProviderFixture, chunkSize: Int) throws {
        let decoding = try ModelStreamDecoder.providerDecoding(
            fixture.bytes, dialect: fixture.dialect, chunkSize: chunkSize)
        #expect(decoding.text() == fixture.expectedText)
        #expect(decoding.finishes() == [fixture.expectedFinish])
        // Chunking never changes the result.
        #expect(decoding.events == fixture.wholeDecoding.events)
    }

    @Test(arguments: ProviderFixture.all, [1, 3, Int.max])
    func autoDetectionDecodesTheSame(fixture: ProviderFixture, chunkSize: Int) throws {
        let detected = try ModelStreamDecoder.providerDecoding(fixture.bytes, dialect: nil, chunkSize: chunkSize)
        #expect(detected.events == fixture.wholeDecoding.events)
    }

    @Test(arguments: ProviderFixture.all)
    func detectsTheDialect(fixture: ProviderFixture) {
        #expect(ModelDialect.detect(fixture.bytes, isComplete: true) == fixture.dialect)
        // The raw capture too, even when its SSE framing was stripped.
        let raw = (try? Data(contentsOf: ProviderFixture.folder.appendingPathComponent(fixture.file))).map(Array.init)
        #expect(ModelDialect.detect(raw ?? [], isComplete: true) == fixture.dialect)
        // A prefix never names a wrong dialect, and the first record is enough.
        for length in stride(from: 0, through: min(fixture.bytes.count, 2048), by: 17) {
            let guess = ModelDialect.detect(fixture.bytes.prefix(length))
            #expect(guess == nil || guess == fixture.dialect, "prefix of \(length) bytes")
        }
        let firstRecord = fixture.bytes.prefix(fixture.recordEnds[0])
        #expect(ModelDialect.detect(firstRecord) == fixture.dialect)
    }

    @Test(arguments: ProviderFixture.all)
    func listedDetailsMatch(fixture: ProviderFixture) throws {
        let decoding = fixture.wholeDecoding
        let entry = fixture.entry
        if let expected = entry["expected_tool_calls"]?.arrayValue {
            let calls = decoding.toolCalls
            try #require(calls.count == expected.count)
            for (call, expected) in zip(calls, expected) {
                #expect(call.name == expected["name"]?.stringValue)
                #expect(call.argumentsDelta == (expected["arguments"] ?? expected["partial_json"])?.stringValue)
                if let id = expected["id"]?.stringValue { #expect(call.id == id) }
                if let index = expected["index"]?.intValue { #expect(call.index == index) }
                if let choice = expected["choice"]?.intValue { #expect(call.choice == choice) }
            }
        } else {
            #expect(decoding.toolCalls.isEmpty)
        }
        #expect(decoding.reasoning() == entry["expected_reasoning"]?.stringValue ?? "")
        #expect(decoding.refusal() == entry["expected_refusal"]?.stringValue ?? "")
        if let expected = entry["expected_error"] {
            try #require(decoding.errors.count == 1)
            let error = decoding.errors[0]
            #expect(error.message == expected["message"]?.stringValue)
            #expect(error.status == expected["code"]?.intValue)
            #expect(error.code == expected["status"]?.stringValue)
        } else {
            #expect(decoding.errors.isEmpty)
        }
        if let usage = entry["usage"], let last = decoding.usages.last {
            #expect(last.inputTokens == usage["prompt_tokens"]?.intValue)
            #expect(last.outputTokens == usage["completion_tokens"]?.intValue)
            #expect(last.totalTokens == usage["total_tokens"]?.intValue)
            #expect(last.reasoningTokens == usage["completion_tokens_details"]?["reasoning_tokens"]?.intValue)
        } else {
            #expect(entry["usage"] == nil)
        }
    }

    /// Cut before the record that finishes choice 0, at a record boundary or inside the next record:
    /// the stream ends with `truncated`, keeping the text of the complete records.
    @Test(arguments: ProviderFixture.all)
    func aStreamCutBeforeItsFinishIsTruncated(fixture: ProviderFixture) throws {
        // Walk the records; a copy of the decoder (a value) tells how the stream would end here.
        var decoder = ModelStreamDecoder(dialect: fixture.dialect)
        var events: [ModelEvent] = []
        var textSoFar: [String] = []  // the text after 0, 1, 2 … records, while the stream is unfinished
        var start = 0
        for end in fixture.recordEnds {
            var copy = decoder
            let decoding = ProviderDecoding(events: events + (try copy.finish()))
            guard decoding.finishes() == [.truncated] else { break }
            textSoFar.append(decoding.text())
            events += try decoder.feed(fixture.bytes[start..<end])
            start = end
        }
        #expect(!textSoFar.isEmpty)
        #expect(textSoFar.count <= fixture.recordEnds.count)
        // Check a sample of cuts by decoding the cut bytes afresh.
        let step = max(1, textSoFar.count / 4)
        for records in Set(Array(stride(from: 0, to: textSoFar.count, by: step)) + [textSoFar.count - 1]) {
            let boundary = records == 0 ? 0 : fixture.recordEnds[records - 1]
            let next = fixture.recordEnds[records]
            for cut in Set([boundary, (boundary + next) / 2]) {
                let decoding = try ModelStreamDecoder.providerDecoding(
                    Array(fixture.bytes[..<cut]), dialect: fixture.dialect)
                #expect(decoding.finishes() == [.truncated], "cut at \(cut)")
                #expect(decoding.events.last == .finish(.truncated, choice: 0), "cut at \(cut)")
                #expect(decoding.text() == textSoFar[records], "cut at \(cut)")
                #expect(fixture.expectedText.hasPrefix(decoding.text()))
            }
        }
    }

    @Test func cuttingBeforeTheFinishChunkKeepsTheWholeText() throws {
        let fixture = try #require(ProviderFixture.all.first { $0.file == "openai-chat-basic-usage.txt" })
        let text = String(decoding: fixture.bytes, as: UTF8.self)
        let finishChunk = try #require(
            text.range(
                of:
                    "data: {\"id\":\"chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL\",\"object\":\"chat.completion.chunk\",\"created\":1727346168,\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_5050236cbd\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}"
            ))
        let decoding = try ModelStreamDecoder.providerDecoding(
            String(text[..<finishChunk.lowerBound]), dialect: .openAIChat)
        #expect(decoding.text() == fixture.expectedText)
        #expect(decoding.finishes() == [.truncated])
        #expect(decoding.events.last == .finish(.truncated, choice: 0))
    }

    @Test func geminiErrorWithoutFramingComesInOrder() throws {
        let fixture = try #require(ProviderFixture.all.first { $0.file == "gemini-error-mid-stream.txt" })
        for chunkSize in Self.chunkSizes {
            let decoding = try ModelStreamDecoder.providerDecoding(
                fixture.bytes, dialect: .gemini, chunkSize: chunkSize)
            let kinds = decoding.events.map { $0.jsonValue["kind"]?.stringValue ?? "" }
            #expect(kinds == ["text", "text", "error", "finish"])
        }
    }
}
