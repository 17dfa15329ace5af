extension String {
    /// Decodes UTF-8 exactly like `String(decoding: bytes, as: UTF8.self)` (invalid sequences
    /// become U+FFFD the same way), but fast on long, mostly-ASCII text.
    ///
    /// The standard library checks a buffer for ASCII very quickly, but a buffer holding a
    /// single non-ASCII byte is validated many times more slowly, all of it. A 64 KB event of
    /// JSON with an accented name here and there would take the slow path throughout. So a long
    /// buffer is cut into long ASCII runs, which take the fast path, and the stretches between
    /// them, and the pieces are joined. Cutting next to an ASCII byte never changes the result:
    /// an ASCII byte can neither continue a multi-byte sequence nor be swallowed by an invalid
    /// one. Text dense in non-ASCII has no long runs, and is decoded in one piece.
    init(decodingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= Self.piecewiseThreshold, let base = bytes.baseAddress else {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        self = Self.decodeInPieces(base, count: bytes.count)
    }

    /// Shorter buffers are decoded in one go.
    static var piecewiseThreshold: Int { 256 }

    /// An ASCII run this long (in bytes) or longer becomes a piece of its own. Each piece costs
    /// an allocation and a copy, so shorter runs stay with their non-ASCII neighbours.
    private static var longRun: Int { 256 }

    /// The length of the ASCII start of `raw[0..<count]`, rounded down to 32 bytes.
    @inline(__always)
    private static func asciiPrefix(_ raw: UnsafeRawPointer, count: Int) -> Int {
        var offset = 0
        while offset + 32 <= count {
            let a = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            let c = raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
            let d = raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            if (a | b | c | d) & 0x8080_8080_8080_8080 != 0 { break }
            offset += 32
        }
        return offset
    }

    private static func decodeInPieces(_ base: UnsafePointer<UInt8>, count: Int) -> String {
        let raw = UnsafeRawPointer(base)
        var result = ""
        var pieceStart = 0  // the start of the piece not yet appended
        var runStart = 0  // the start of the current run of ASCII words
        var offset = asciiPrefix(raw, count: count)  // a fast first look: often all of it
        func append(_ from: Int, _ to: Int, ascii: Bool) {
            guard from < to else { return }
            if result.isEmpty { result.reserveCapacity(count) }
            let piece = UnsafeBufferPointer(start: base + from, count: to - from)
            result.append(ascii ? String(decoding: piece, as: UTF8.self) : String(validatingMostly: piece))
        }
        while offset + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
            guard word & 0x8080_8080_8080_8080 != 0 else { continue }
            // This word holds a non-ASCII byte, and `runStart..<wordStart` is ASCII.
            let wordStart = offset - 8
            if wordStart - runStart >= longRun {
                append(pieceStart, runStart, ascii: false)  // the mixed stretch before the run
                append(runStart, wordStart, ascii: true)
                pieceStart = wordStart
            }
            runStart = offset
        }
        let tailIsASCII = (offset..<count).allSatisfy { base[$0] < 0x80 }
        if runStart == 0 && tailIsASCII {
            // All ASCII: the standard library's fast path as it is.
            return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
        }
        let runEnd = tailIsASCII ? count : offset
        if runEnd - runStart >= longRun {
            append(pieceStart, runStart, ascii: false)
            append(runStart, runEnd, ascii: true)
            pieceStart = runEnd
        }
        if pieceStart == 0 {
            // No long ASCII run: one piece.
            return String(validatingMostly: UnsafeBufferPointer(start: base, count: count))
        }
        append(pieceStart, count, ascii: false)
        return result
    }

    /// Decodes text holding non-ASCII bytes. Copying first and validating in place measured up
    /// to twice as fast as `String(decoding:as:)` on valid non-ASCII text; invalid text (rare)
    /// is repaired the same way, only more slowly.
    private init(validatingMostly bytes: UnsafeBufferPointer<UInt8>) {
        self.init(unsafeUninitializedCapacity: bytes.count) { $0.initialize(fromContentsOf: bytes) }
    }
}
