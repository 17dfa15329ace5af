import CadenceTerminal

/// The terminal key decoder gives the same keys for any split of the same bytes, whether the
/// reads come whole or in the header's chunks (consecutive text joined, as
/// a line editor would insert it), and `KeyDecoder/flush()` after the last read ends the same way.
public enum KeyDecoderSplitOracle: FuzzOracle {
    public static let target = "keys"

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        let whole = keys([input.payload[...]])
        try OracleViolation.expect(
            keys(input.chunks(of: input.payload)), equals: whole,
            "chunks \(input.chunkLengths(total: input.payload.count)) differ from whole")
    }

    /// The keys of `reads`, then of a flush, with consecutive text joined.
    static func keys(_ reads: [ArraySlice<UInt8>]) -> [KeyEvent] {
        var decoder = KeyDecoder()
        var keys: [KeyEvent] = []
        for read in reads { keys += decoder.feed(read) }
        return KeyDecoder.merged(keys + decoder.flush())
    }
}
