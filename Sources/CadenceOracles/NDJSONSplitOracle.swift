import CadenceCore

/// The NDJSON line splitter gives the same lines for any split of the same bytes, including a
/// caller that goes on after a line that was too long.
///
/// The options byte chooses the line limit (1 MiB, or a few bytes so the payload exceeds it).
public enum NDJSONSplitOracle: FuzzOracle {
    public static let target = "ndjson"

    static let lineLimits = [1 << 20, 1, 8, 64]

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let input = FuzzInput(data)
        let limit = lineLimits[Int(input.options) % lineLimits.count]
        let whole = lines([input.payload[...]], maxLineBytes: limit)
        let split = lines(input.chunks(of: input.payload), maxLineBytes: limit)
        try OracleViolation.expect(
            split, equals: whole, "chunks \(input.chunkLengths(total: input.payload.count)) differ from whole")
    }

    /// The lines of `chunks`, and whether any line was too long; goes on after an error.
    static func lines(_ chunks: [ArraySlice<UInt8>], maxLineBytes: Int) -> Lines {
        var decoder = NDJSONDecoder(maxLineBytes: maxLineBytes)
        var result = Lines()
        for chunk in chunks {
            do {
                result.lines += try decoder.feed(chunk)
            } catch {
                result.wasTooLong = true
            }
        }
        result.lines += decoder.finish()
        return result
    }

    struct Lines: Equatable {
        var lines: [String] = []
        var wasTooLong = false
    }
}
