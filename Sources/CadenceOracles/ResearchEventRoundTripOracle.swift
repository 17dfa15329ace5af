import CadenceCore

/// Every research event the client decodes survives the trip back through the server's encoder:
/// framed by `ResearchEventEncoder` and decoded again, it is the same event. The JSON reader and
/// writer agree in the same way: written out and read back, a parsed value is unchanged.
///
/// The payload is an SSE body; each of its items is decoded, from its `String` and from the bytes of
/// an `SSEBatch`, with the same results. Events that fail to decode must fail with an error, never
/// a trap.
public enum ResearchEventRoundTripOracle: FuzzOracle {
    public static let target = "research"

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        var sse = SSEDecoder()
        guard let items = try? sse.feed(input.payload) + sse.finish() else { return }
        var batched = SSEDecoder()
        var batch = SSEBatch()
        try? batched.feed(input.payload, into: &batch)
        try OracleViolation.expect(
            batch.map(decode), equals: items.map(decode), "events decoded from bytes differ from those from strings")
        for item in items {
            if case .event(let event) = item, let json = try? JSONValue(parsing: event.data) {
                let reread = try? JSONValue(parsing: json.jsonText)
                try OracleViolation.expect(reread, equals: json, "JSON written and read back differs")
            }
            guard let decoded = try? ResearchEventDecoder.decode(item) else { continue }
            let frame = ResearchEventEncoder.frame(decoded)
            var again = SSEDecoder()
            let reframed = try? again.feed(Array(frame.utf8)) + again.finish()
            let redecoded = reframed.map { $0.compactMap { try? ResearchEventDecoder.decode($0) } }
            try OracleViolation.expect(
                redecoded, equals: [decoded], "event framed as \(frame.debugDescription) decodes differently")
        }
    }

    static func decode(_ item: SSEItem) -> Result<ResearchEvent?, ResearchDecodingError> {
        Result { () throws(ResearchDecodingError) in try ResearchEventDecoder.decode(item) }
    }

    static func decode(_ item: SSEBatch.Item) -> Result<ResearchEvent?, ResearchDecodingError> {
        Result { () throws(ResearchDecodingError) in try ResearchEventDecoder.decode(item) }
    }
}
