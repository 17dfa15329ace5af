import Testing

@testable import CadenceCore

/// Limits: an over-large event, an over-long line, and a body with no newline at all.
@Suite("SSE limits")
struct SSELimitTests {
    static let chunkings = SSEChunking.standard(splits: []) + [.size(64)]

    @Test("an event over maxEventBytes fails; one at the limit passes", arguments: chunkings)
    func eventOverLimit(_ chunking: SSEChunking) {
        let limits = SSELimits(maxEventBytes: 16)
        var atLimit = SSEDecoder(limits: limits)
        let passed = atLimit.decode(Array("data: 0123456789\ndata: 01234\n\n".utf8), chunking)  // 10 + LF + 5
        #expect(passed.error == nil)
        #expect(passed.events == [SSEEvent(data: "0123456789\n01234")])

        var overLimit = SSEDecoder(limits: limits)
        let failed = overLimit.decode(Array("data: ok\n\ndata: 0123456789\ndata: 012345\n\n".utf8), chunking)
        #expect(failed.error?.code == .eventTooLarge)
        #expect(failed.error?.limit == 16)
        #expect((failed.error?.seen ?? 0) > 16)
        #expect(failed.events == [SSEEvent(data: "ok")], "the event before the error is delivered")
    }

    @Test("a line over maxLineBytes fails; one at the limit passes", arguments: chunkings)
    func lineOverLimit(_ chunking: SSEChunking) {
        let limits = SSELimits(maxLineBytes: 12)
        var atLimit = SSEDecoder(limits: limits)
        #expect(atLimit.decode(Array(": 0123456789\n".utf8), chunking).items == [.comment("0123456789")])

        var overLimit = SSEDecoder(limits: limits)
        let error = overLimit.decode(Array("event: 012345\n".utf8), chunking).error
        #expect(error == SSEDecoderError(code: .lineTooLong, limit: 12, seen: error?.seen ?? -1))
        #expect((error?.seen ?? 0) > 12)
    }

    @Test(
        "the limit passed first is reported, whatever the chunking",
        arguments: [
            (SSELimits(maxEventBytes: 50, maxLineBytes: 10), SSEDecoderError.Code.lineTooLong),
            (SSELimits(maxEventBytes: 50, maxLineBytes: 100), .eventTooLarge),
            (SSELimits(maxEventBytes: 50, maxLineBytes: 56), .lineTooLong),  // both at the 57th byte of the line
            (SSELimits(maxEventBytes: 50, maxLineBytes: 57), .eventTooLarge),
        ])
    func firstLimitWins(_ limits: SSELimits, _ code: SSEDecoderError.Code) {
        let bytes = Array("data: \(String(repeating: "x", count: 200))\n\n".utf8)
        for chunking in Self.chunkings {
            var decoder = SSEDecoder(limits: limits)
            #expect(decoder.decode(bytes, chunking).error?.code == code, "\(chunking)")
        }
    }

    @Test(
        "a body with no newline fails once the line passes the limit, holding no more than that",
        arguments: ["", "data: ", "event: "])
    func noNewline(prefix: String) throws {
        let limit = 64 * 1024
        var decoder = SSEDecoder(limits: SSELimits(maxEventBytes: 1 << 20, maxLineBytes: limit))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        _ = try decoder.feed(Array(prefix.utf8))
        var fed = prefix.utf8.count
        var caught: SSEDecoderError?
        while fed < 1 << 20 {
            do {
                _ = try decoder.feed(chunk)
            } catch {
                caught = error
                break
            }
            fed += chunk.count
            #expect(decoder.pendingLine.count + decoder.dataBuffer.count <= limit)
        }
        let error = try #require(caught)
        #expect(error.code == .lineTooLong)
        #expect(fed <= limit, "it failed with the first chunk past the limit")
        #expect(error.seen > limit && error.seen <= limit + chunk.count)
        #expect(decoder.pendingLine.capacity + decoder.dataBuffer.capacity == 0, "buffers are freed")
    }

    @Test("with default limits, a data line with no newline stops at 16 MiB")
    func noNewlineDefaultLimits() throws {
        var decoder = SSEDecoder()
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        _ = try decoder.feed(Array("data: ".utf8))
        var fed = 6
        let error = #expect(throws: SSEDecoderError.self) {
            while fed < 32 << 20 {
                _ = try decoder.feed(chunk)
                fed += chunk.count
            }
        }
        #expect(error?.code == .eventTooLarge)
        #expect(error?.limit == 16 << 20)
        #expect(fed <= 16 << 20 + 6)
    }

    @Test("after an error, every call throws it; items before it still come out")
    func failureIsSticky() throws {
        var decoder = SSEDecoder(limits: SSELimits(maxEventBytes: 4))
        let items = try decoder.feed(Array("data: ok\n\ndata: too long\n\n".utf8))
        #expect(items == [.event(SSEEvent(data: "ok"))])
        let expected = SSEDecoderError(code: .eventTooLarge, limit: 4, seen: 8)
        #expect(throws: expected) { try decoder.feed(Array("data: x\n\n".utf8)) }
        #expect(throws: expected) { try decoder.finish() }

        var rawDecoder = SSEDecoder(limits: SSELimits(maxEventBytes: 4))
        var collected: [SSEItem] = []
        let bytes = Array("data: ok\n\ndata: too long\n\n".utf8)
        #expect(throws: expected) { try bytes.withUnsafeBytes { try rawDecoder.feed($0, into: &collected) } }
        #expect(collected == [.event(SSEEvent(data: "ok"))])
    }

    @Test("the error message gives the limit, the size seen and what to change")
    func description() {
        let event = SSEDecoderError(code: .eventTooLarge, limit: 16, seen: 17).description
        #expect(event.contains("16") && event.contains("17") && event.contains("maxEventBytes"))
        let line = SSEDecoderError(code: .lineTooLong, limit: 1024, seen: 5000).description
        #expect(line.contains("1024") && line.contains("5000") && line.contains("maxLineBytes"))
    }
}
