import CadenceCore

/// The SSE decoder gives the same items, errors and final state for any split of the same bytes,
/// and the same into an `SSEBatch` as into an array.
///
/// The options byte chooses the limits (the defaults, or small ones that the payload can exceed, so
/// that the error path is split too). The payload is decoded whole and in the header's chunks (one
/// byte at a time among them); within the default limits, the result must also equal
/// ``SSEReferenceDecoder``'s, a plain transcription of the standard. Then, after
/// `SSEDecoder/finish()`, the payload is decoded once more as a second body of the same event source
/// (a reconnection), which must decode as it did the first time, given the same last event ID.
public enum SSESplitOracle: FuzzOracle {
    public static let target = "sse"

    /// Everything one decoding produced.
    struct Outcome: Equatable, CustomStringConvertible {
        var items: [SSEItem] = []
        /// Which limit stopped the decoder; how many bytes it had seen then depends on the chunks.
        var error: SSEDecoderError.Code?
        var lastEventID = ""
        var reconnectionTime: Int?

        var description: String {
            "\(items.count) items \(items.suffix(3)), error \(String(describing: error)), "
                + "last id \(lastEventID.debugDescription), retry \(String(describing: reconnectionTime))"
        }
    }

    static let limits = [
        SSELimits.default,
        SSELimits(maxEventBytes: 64, maxLineBytes: 80),
        SSELimits(maxEventBytes: 200, maxLineBytes: 16),
        SSELimits(maxEventBytes: 1, maxLineBytes: 1),
    ]

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        let limits = Self.limits[Int(input.options) % Self.limits.count]
        var decoder = SSEDecoder(limits: limits)
        let whole = decode([input.payload[...]], with: &decoder)
        var chunked = SSEDecoder(limits: limits)
        let split = decode(input.chunks(of: input.payload), with: &chunked)
        try OracleViolation.expect(
            split, equals: whole, "chunks \(input.chunkLengths(total: input.payload.count)) differ from whole")
        var batched = SSEDecoder(limits: limits)
        let borrowed = decode(input.chunks(of: input.payload), with: &batched, intoBatch: true)
        try OracleViolation.expect(
            borrowed, equals: split, "into a batch, chunks \(input.chunkLengths(total: input.payload.count)) differ")
        guard whole.error == nil else { return }
        if limits == .default {
            let reference = SSEReferenceDecoder(input.payload)
            let expected = Outcome(
                items: reference.items, lastEventID: reference.lastEventID,
                reconnectionTime: reference.reconnectionTime)
            try OracleViolation.expect(whole, equals: expected, "the decoder differs from the reference decoder")
        }
        // A second body of the same event source decodes as a fresh decoder that knows the last ID.
        var fresh = SSEDecoder(limits: limits, lastEventID: decoder.lastEventID)
        var again = decode([input.payload[...]], with: &fresh)
        again.reconnectionTime = again.reconnectionTime ?? decoder.reconnectionTime
        let reconnected = decode(input.chunks(of: input.payload), with: &decoder)
        try OracleViolation.expect(reconnected, equals: again, "a second body after finish() differs")
    }

    /// Feeds `chunks` then finishes, stopping at the first error; with `intoBatch`, feeds them into
    /// one reused `SSEBatch`, read after each chunk.
    static func decode(
        _ chunks: [ArraySlice<UInt8>], with decoder: inout SSEDecoder, intoBatch: Bool = false
    ) -> Outcome {
        var outcome = Outcome()
        var batch = SSEBatch()
        do throws(SSEDecoderError) {
            for chunk in chunks {
                guard intoBatch else {
                    outcome.items += try decoder.feed(chunk)
                    continue
                }
                let fed = Result { () throws(SSEDecoderError) in try decoder.feed(chunk, into: &batch) }
                outcome.items += batch.map(SSEItem.init)  // with the items before an error
                batch.removeAll()
                try fed.get()
            }
            outcome.items += try decoder.finish()
        } catch {
            outcome.error = error.code
            return outcome
        }
        outcome.lastEventID = decoder.lastEventID
        outcome.reconnectionTime = decoder.reconnectionTime
        return outcome
    }
}
