/// One data payload of a provider stream (an SSE event's data, an NDJSON line, or a JSON value
/// written without framing), read where it lies: the dialect decoders parse its JSON from the
/// bytes, and its text becomes a `String` only for an error message.
///
/// ```swift
/// var data = "[DONE]\n"
/// data.withUTF8 { ProviderPayload(bytes: $0).isExactly("[DONE]") }  // true
/// ```
struct ProviderPayload {
    /// The payload's UTF-8 bytes, valid only during the decoding call that is given them.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the payload holds nothing but spaces, tabs, CRs and LFs.
    var isBlank: Bool {
        bytes.allSatisfy(Self.isWhitespace)
    }

    /// Whether the payload, without the spaces, tabs, CRs and LFs around it, is `text`: a marker
    /// such as `[DONE]`.
    func isExactly(_ text: StaticString) -> Bool {
        guard let first = bytes.firstIndex(where: { !Self.isWhitespace($0) }),
            let last = bytes.lastIndex(where: { !Self.isWhitespace($0) })
        else { return text.utf8CodeUnitCount == 0 }
        let marker = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return bytes[first...last].elementsEqual(marker)
    }

    /// The payload as text, for messages (invalid UTF-8 becomes U+FFFD).
    var text: String {
        String(decodingUTF8: bytes)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }
}
