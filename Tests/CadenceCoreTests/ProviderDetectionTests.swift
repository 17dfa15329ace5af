import CadenceCore
import Testing

struct ProviderDetectionTests {
    @Test(arguments: [
        ("event: message_start\ndata: {}\n", ModelDialect.anthropic),
        ("event: ping\n", .anthropic),
        ("event: response.created\ndata: {}\n", .openAIResponses),
        (": comment\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}\n", .anthropic),
        ("event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"x\"}\n", .openAIResponses),
        ("data: {\"type\":\"response.output_text.delta\",\"delta\":\"x\"}\n", .openAIResponses),
        ("data: {\"id\":\"1\",\"choices\":[]}\r\n", .openAIChat),
        ("data: {\"object\":\"chat.completion.chunk\"}\n", .openAIChat),
        ("data: [DONE]\n", .openAIChat),
        ("data: {\"candidates\": [{\"content\": {}}]}\r\n", .gemini),
        ("data: {\"error\":{\"code\":429,\"message\":\"x\",\"status\":\"RESOURCE_EXHAUSTED\"}}\n", .gemini),
        ("data: {\"error\":{\"message\":\"x\",\"type\":\"server_error\"}}\n", .openAIChat),
        ("{\"model\":\"llama3\",\"created_at\":\"t\",\"message\":{\"content\":\"Hi\"},\"done\":false}\n", .ollama),
        ("{\"model\":\"llama3\",\"response\":\"Hi\",\"done\":false}\n", .ollama),
        ("{\"error\":\"model 'x' not found\"}\n", .ollama),
        ("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n", .openAIChat),
        ("[{\"candidates\": []}\n", .gemini),
        ("\u{FEFF}retry: 100\nid: 4\ndata: {\"choices\":[]}\n", .openAIChat),
    ])
    func detectsFromContent(text: String, expected: ModelDialect) {
        #expect(ModelDialect.detect(Array(text.utf8)) == expected)
    }

    @Test func waitsForACompleteLine() {
        let line = "data: {\"choices\":[]}"
        #expect(ModelDialect.detect(Array(line.utf8)) == nil)
        #expect(ModelDialect.detect(Array(line.utf8), isComplete: true) == .openAIChat)
        #expect(ModelDialect.detect([UInt8]()) == nil)
        #expect(ModelDialect.detect(Array(": keep-alive\n\n".utf8), isComplete: true) == nil)
    }

    @Test func aPrettyPrintedBodyIsReadWhole() {
        let body =
            "{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"x\",\n    \"status\": \"INVALID_ARGUMENT\"\n  }\n}\n"
        #expect(ModelDialect.detect(Array(body.utf8)) == nil)
        #expect(ModelDialect.detect(Array(body.utf8), isComplete: true) == .gemini)
    }

    @Test func autoDetectionGivesUpWithAnError() throws {
        let decoding = try ModelStreamDecoder.providerDecoding("hello, world\n", dialect: nil)
        #expect(decoding.errors.map(\.code) == [ModelError.unknownDialect])
        #expect(decoding.finishes() == [.error])
        let empty = try ModelStreamDecoder.providerDecoding("", dialect: nil)
        #expect(empty.events == [.finish(.truncated)])
        var decoder = ModelStreamDecoder.autoDetecting()
        let noise = try decoder.feed(
            [UInt8](repeating: UInt8(ascii: "x"), count: ModelStreamDecoder.detectionLimit + 1))
        #expect(
            noise.first.flatMap { if case .error(let error) = $0 { error.code } else { nil } }
                == ModelError.unknownDialect)
        #expect(noise.count == 2)
        #expect(try decoder.feed(Array("data: [DONE]\n\n".utf8)) == [])
        #expect(try decoder.finish() == [])
    }

    @Test func theDecoderReportsTheDetectedDialect() throws {
        var decoder = ModelStreamDecoder.autoDetecting()
        #expect(decoder.dialect == nil)
        #expect(try decoder.feed(Array("event: message_st".utf8)) == [])
        #expect(decoder.dialect == nil)
        _ = try decoder.feed(Array("art\n".utf8))
        #expect(decoder.dialect == .anthropic)
    }

    @Test func detectionReadsEachLineOnce() throws {
        // 20 KB of comments fed byte by byte: quadratic re-reading would take minutes in a debug build.
        let stream = String(repeating: ": padding\n", count: 2000) + "event: message_start\n"
        var decoder = ModelStreamDecoder.autoDetecting()
        for byte in stream.utf8 { _ = try decoder.feed(CollectionOfOne(byte)) }
        #expect(decoder.dialect == .anthropic)
    }

    @Test func detectionReadsALongFirstLineOnce() throws {
        // One 20 KB line fed byte by byte: re-reading it on every byte would take minutes in a debug build.
        let stream = "data: {\"choices\":[],\"pad\":\"" + String(repeating: "x", count: 20_000) + "\"}\n"
        var decoder = ModelStreamDecoder.autoDetecting()
        for byte in stream.utf8 { _ = try decoder.feed(CollectionOfOne(byte)) }
        #expect(decoder.dialect == .openAIChat)
    }

    @Test("a byte order mark is skipped only at the start of the stream, whichever chunk a line starts")
    func byteOrderMarkOnlyAtTheStart() throws {
        // Found by the openai-responses fuzz target (auto-detecting): when a chunk ended just before a
        // mid-stream BOM, the line after it was read as if it started the stream and said "ollama".
        let stream = Array("x\n\u{FEFF}data: {\"model\":\"m\",\"response\":\"hi\",\"done\":false}\nevent: ping\n".utf8)
        var whole = ModelStreamDecoder.autoDetecting()
        _ = try whole.feed(stream)
        var split = ModelStreamDecoder.autoDetecting()
        _ = try split.feed(stream[..<2])
        _ = try split.feed(stream[2...])
        #expect(whole.dialect == .anthropic)
        #expect(split.dialect == .anthropic)
        #expect(ModelDialect.detect(Array("\u{FEFF}event: ping\n".utf8)) == .anthropic)
    }

    @Test func rawValuesAreTheCommandLineNames() {
        #expect(
            ModelDialect.allCases.map(\.rawValue) == [
                "openai-chat", "openai-responses", "anthropic", "gemini", "ollama",
            ])
        #expect(ModelDialect.allCases.filter(\.usesLineFraming) == [.ollama])
    }
}
