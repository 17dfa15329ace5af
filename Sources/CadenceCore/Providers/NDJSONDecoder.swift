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
        var isTooLong = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if skippingLongLine {
                    skippingLongLine = false
                } else {
                    appendLine(to: &lines)
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
        if isTooLong {
            heldLines = lines
            throw NDJSONDecoderError(maxLineBytes: maxLineBytes)
        }
        return lines
    }

    /// Ends the stream and returns the last line if it had no line end.
    public mutating func finish() -> [String] {
        var lines = heldLines
        heldLines = []
        if !skippingLongLine { appendLine(to: &lines) }
        skippingLongLine = false
        return lines
    }

    private mutating func appendLine(to lines: inout [String]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        lines.append(String(decoding: line, as: UTF8.self))
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
    /// What happened and what to do.
    public var message: String

    init(maxLineBytes: Int) {
        code = .lineTooLong
        message =
            "an NDJSON line is longer than \(maxLineBytes) bytes; the stream is probably not NDJSON, or raise the limit"
    }

    public var description: String { message }
}
