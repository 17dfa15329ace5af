import CadenceCore
import Testing

struct ProviderNDJSONTests {
    static func lines(_ bytes: [UInt8], chunkSize: Int, maxLineBytes: Int = 1 << 20) throws -> [String] {
        var decoder = NDJSONDecoder(maxLineBytes: maxLineBytes)
        var lines: [String] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            lines += try decoder.feed(bytes[start..<min(start + chunkSize, bytes.count)])
        }
        return lines + decoder.finish()
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func splitsLinesWhateverTheChunks(chunkSize: Int) throws {
        let text = "{\"a\":\"héllo 🌍\"}\r\n\n  \n{\"b\":2}\n{\"c\":\"日本\"}"
        #expect(
            try Self.lines(Array(text.utf8), chunkSize: chunkSize) == [
                #"{"a":"héllo 🌍"}"#, #"{"b":2}"#, #"{"c":"日本"}"#,
            ])
    }

    @Test func aLongLineThrowsAndIsSkipped() throws {
        var decoder = NDJSONDecoder(maxLineBytes: 8)
        #expect(try decoder.feed(Array("12345678\r\n".utf8)) == ["12345678"])
        #expect(throws: NDJSONDecoderError.self) { try decoder.feed(Array("123456789".utf8)) }
        #expect(try decoder.feed(Array("more of the long line\nok\n".utf8)) == ["ok"])
        #expect(decoder.finish() == [])
    }

    /// Found by the NDJSON fuzzer: the error used to drop the rest of its chunk, lines and all, so a
    /// caller going on got different lines when the same bytes came in other chunks.
    @Test func aLongLineKeepsTheLinesAroundItInItsChunk() throws {
        var decoder = NDJSONDecoder(maxLineBytes: 4)
        #expect(throws: NDJSONDecoderError.self) { try decoder.feed(Array("a\ntoo long\nb\nc".utf8)) }
        #expect(try decoder.feed(Array("d\n".utf8)) == ["a", "b", "cd"])
        #expect(decoder.finish() == [])
    }

    @Test func theErrorSaysWhatToDo() {
        var decoder = NDJSONDecoder(maxLineBytes: 4)
        do {
            _ = try decoder.feed(Array("{\"long\":1}".utf8))
            Issue.record("no error")
        } catch {
            #expect(error.code == .lineTooLong)
            #expect(error.message.contains("4 bytes"))
        }
    }
}
