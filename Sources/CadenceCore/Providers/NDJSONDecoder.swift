/// Splits a byte stream of newline-delimited JSON (NDJSON, `application/x-ndjson`) into lines.
///
/// Incremental: bytes may arrive in chunks of any size, a line or a UTF-8 sequence may be split
/// across chunks, and the result is the same. Lines end with `\n`; a `\r` before it is dropped.
/// Blank lines are skipped. The lines are not parsed: that is the dialect's job (``OllamaDecoder``).
///
/// ```swift
/// var lines = NDJSONDecoder()
/// try lines.feed(Array("{\"response\":\"Hi\"}\r\n{\"do".utf8))  // [#"{"response":"Hi"}"#]
/// try lines.feed(Array("ne\":true}".utf8))                      // []
/// lines.finish()                                                 // [#"{"done":true}"#]
/// ```
public struct NDJSONDecoder: Sendable {
    /// The longest line accepted, in bytes, not counting its line end.
    public let maxLineBytes: Int
    private var line: [UInt8] = []
    private var skippingLongLine = false
    /// Lines completed by a call that threw, returned first by the next call.
    private var heldLines: [String] = []

    /// - Parameter maxLineBytes: the longest line accepted; a longer one throws ``NDJSONDecoderError``.
    public init(maxLineBytes: Int = 1 << 20) {
        self.maxLineBytes = maxLineBytes
    }

    /// Adds bytes and returns the lines they complete.
    ///
    /// - Throws: ``NDJSONDecoderError`` when a line grows past ``maxLineBytes``. The rest of that line
    ///   is then skipped and the rest of `bytes` still read; the lines they complete come first in
    ///   the next call's result, so a caller that goes on gets the same lines whatever the chunks.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(NDJSONDecoderError) -> [String] {
        var lines = heldLines
        heldLines = []
        do {
            try feed(bytes) { lines.append(String(decodingUTF8: $0)) }
        } catch {
            heldLines = lines
            throw error
        }
        return lines
    }

    /// Adds bytes and hands each line they complete to `body`, as bytes valid during the call only
    /// (without its line end; blank lines are skipped), so that a line's JSON can be read in place.
    ///
    /// - Throws: ``NDJSONDecoderError`` as ``feed(_:)`` does, after handing over the lines before it.
    mutating func feed(
        _ bytes: some Collection<UInt8>, eachLine body: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(NDJSONDecoderError) {
        var isTooLong = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if skippingLongLine {
                    skippingLongLine = false
                } else {
                    completeLine(body)
                }
                continue
            }
            guard !skippingLongLine else { continue }
            line.append(byte)
            if line.count > maxLineBytes + 1 || (line.count > maxLineBytes && byte != UInt8(ascii: "\r")) {
                line.removeAll()
                skippingLongLine = true
                isTooLong = true
            }
        }
        if isTooLong { throw NDJSONDecoderError(maxLineBytes: maxLineBytes) }
    }

    /// Ends the stream and returns the last line if it had no line end.
    public mutating func finish() -> [String] {
        var lines = heldLines
        heldLines = []
        if !skippingLongLine { completeLine { lines.append(String(decodingUTF8: $0)) } }
        skippingLongLine = false
        return lines
    }

    /// Hands the line held so far to `body`, without a final CR, unless it is blank; then empties it.
    private mutating func completeLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        line.withUnsafeBufferPointer(body)
    }
}

/// A line of an NDJSON stream was longer than the decoder accepts.
///
/// ```swift
/// do { _ = try decoder.feed(bytes) } catch { print(error.message) }
/// ```
public struct NDJSONDecoderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// A line grew past the limit.
        case lineTooLong
    }

    public var code: Code
    /// The line limit that was exceeded, in bytes.
    public var limit: Int
    /// What happened and what to do.
    public var message: String

    init(maxLineBytes: Int) {
        code = .lineTooLong
        limit = maxLineBytes
        message =
            "an NDJSON line is longer than \(maxLineBytes) bytes; the stream is probably not NDJSON, or raise the limit"
    }

    public var description: String { message }
}
