import CadenceCore
import Foundation
import Testing

struct ProviderStreamDecoderTests {
    @Test func aLastEventWithoutItsBlankLineIsKeptOnlyWhenComplete() throws {
        let chunk = #"data: {"choices":[{"index":0,"delta":{"content":"A"},"finish_reason":"stop"}]}"#
        let complete = try ModelStreamDecoder.providerDecoding(chunk, dialect: .openAIChat)
        #expect(complete.events == [.text("A"), .finish(.stop)])
        let cut = try ModelStreamDecoder.providerDecoding(String(chunk.dropLast(3)), dialect: .openAIChat)
        #expect(cut.events == [.finish(.truncated)])
        let done = try ModelStreamDecoder.providerDecoding(
            providerSSE(#"{"choices":[]}"#) + "data: [DONE]", dialect: .openAIChat)
        #expect(done.events == [.finish(.stop)])
    }

    @Test(arguments: ProviderFixture.all.filter { $0.format == "chunks-jsonl" })
    func payloadsCapturedWithoutFramingDecodeTheSame(fixture: ProviderFixture) throws {
        let raw = try [UInt8](Data(contentsOf: ProviderFixture.folder.appendingPathComponent(fixture.file)))
        let framed = try ModelStreamDecoder.providerDecoding(fixture.bytes, dialect: fixture.dialect)
        for chunkSize in [1, 64, Int.max] {
            let unframed = try ModelStreamDecoder.providerDecoding(raw, dialect: nil, chunkSize: chunkSize)
            #expect(unframed.events == framed.events)
        }
    }

    /// Found by the provider fuzzers: an error thrown by a call dropped the events that call had
    /// decoded before the limit, so what a caller saw before the error depended on the chunks.
    @Test(arguments: [
        (ModelDialect.openAIChat, providerSSE(#"{"choices":[{"index":0,"delta":{"content":"A"}}]}"#) + "data: "),
        (ModelDialect.openAIChat, #"{"choices":[{"index":0,"delta":{"content":"A"}}]}"# + "\n:"),
        (ModelDialect.ollama, #"{"model":"m","response":"A","done":false}"# + "\n"),
    ])
    func eventsBeforeALimitDoNotDependOnTheChunks(dialect: ModelDialect, start: String) throws {
        let limits = SSELimits(maxEventBytes: 64, maxLineBytes: 80)
        let bytes = Array((start + String(repeating: "x", count: 100) + "\n\n").utf8)
        for chunkSize in [1, 7, bytes.count] {
            var decoder = ModelStreamDecoder(dialect: dialect, limits: limits)
            var events: [ModelEvent] = []
            var failure: ModelStreamError?
            do {
                for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                    events += try decoder.feed(bytes[start..<min(start + chunkSize, bytes.count)])
                }
                events += try decoder.finish()
            } catch {
                failure = error
            }
            #expect(events == [.text("A")], "chunks of \(chunkSize)")
            #expect(failure != nil, "chunks of \(chunkSize)")
            #expect(throws: ModelStreamError.self, "an error sticks") { try decoder.finish() }
        }
    }

    @Test func anUnbalancedBareValueIsAnErrorAtTheEnd() throws {
        let stream = providerSSE(#"{"choices":[{"index":0,"delta":{"content":"A"}}]}"#) + "{\"error\": {\n"
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.text() == "A")
        #expect(decoding.errors.map(\.code) == [ModelError.invalidJSON])
        #expect(decoding.finishes() == [.truncated])
    }

    @Test func linesThatAreNeitherSSENorJSONAreIgnored() throws {
        let stream =
            "<html>\nretry: 10\n: ping\n" + providerSSE(#"{"choices":[{"index":0,"delta":{"content":"A"}}]}"#, "[DONE]")
        let decoding = try ModelStreamDecoder.providerDecoding(stream, dialect: .openAIChat)
        #expect(decoding.events == [.text("A"), .finish(.stop)])
    }

    @Test func theStreamDecoderWrapsLimitErrors() {
        var ndjson = ModelStreamDecoder(dialect: .ollama, limits: SSELimits(maxEventBytes: 64, maxLineBytes: 16))
        #expect(throws: ModelStreamError.self) { try ndjson.feed(Array(#"{"response":"this line is too long"}"#.utf8)) }
        var sse = ModelStreamDecoder(dialect: .openAIChat, limits: SSELimits(maxEventBytes: 8, maxLineBytes: 64))
        do {
            _ = try sse.feed(Array("data: {\"choices\":[]}\n\n".utf8))
            Issue.record("no error")
        } catch {
            #expect(error.code == .eventTooLarge)
        }
    }
}
