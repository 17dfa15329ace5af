public import CadenceCore

/// A plain, whole-input transcription of the WHATWG event-stream algorithm, working on Strings,
/// to compare `SSEDecoder`'s chunked byte-level decoding with (in the SSE tests and the SSE fuzzer).
///
/// ```swift
/// SSEReferenceDecoder(Array("data: hi\n\n".utf8)).items  // [.event(SSEEvent(data: "hi"))]
/// ```
public struct SSEReferenceDecoder {
    public private(set) var items: [SSEItem] = []
    public private(set) var lastEventID = ""
    public private(set) var reconnectionTime: Int?

    /// Decodes a whole body.
    public init(_ bytes: [UInt8]) {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var data = ""
        var eventType = ""
        var idBuffer = ""
        for line in Self.lines(body) {
            let text = String(decoding: line, as: UTF8.self)
            if text.isEmpty {
                lastEventID = idBuffer
                if !data.isEmpty {
                    data.removeLast()
                    items.append(
                        .event(SSEEvent(type: eventType.isEmpty ? "message" : eventType, data: data, id: idBuffer)))
                }
                data = ""
                eventType = ""
                continue
            }
            // Scalars, not Characters: a combining mark after ':' or ' ' must not hide it.
            let scalars = text.unicodeScalars
            let name: Substring
            var value: Substring
            if let colon = scalars.firstIndex(of: ":") {
                name = Substring(scalars[..<colon])
                value = Substring(scalars[scalars.index(after: colon)...])
                if value.unicodeScalars.first == " " { value = Substring(value.unicodeScalars.dropFirst()) }
            } else {
                name = text[...]
                value = ""
            }
            switch name {
            case "": items.append(.comment(String(value)))
            case "data": data += value + "\n"
            case "event": eventType = String(value)
            case "id" where !value.unicodeScalars.contains("\0"): idBuffer = String(value)
            case "retry" where !value.isEmpty && value.utf8.allSatisfy { (0x30...0x39).contains($0) }:
                let milliseconds = Int(value) ?? .max
                reconnectionTime = milliseconds
                items.append(.retry(milliseconds))
            default: break
            }
        }
    }

    /// The complete lines of `body`: ended by CR, LF or CRLF; an unfinished last line is dropped.
    static func lines(_ body: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = body.startIndex
        var index = start
        while index < body.endIndex {
            let byte = body[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(body[start..<index])
                if byte == 0x0D && index + 1 < body.endIndex && body[index + 1] == 0x0A { index += 1 }
                start = index + 1
            }
            index += 1
        }
        return lines
    }
}
