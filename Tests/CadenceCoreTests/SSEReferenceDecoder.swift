import CadenceCore

/// A plain, whole-input transcription of the WHATWG event-stream algorithm, working on Strings,
/// to compare ``SSEDecoder``'s chunked byte-level decoding with.
struct SSEReferenceDecoder {
    var items: [SSEItem] = []
    var lastEventID = ""
    var reconnectionTime: Int?

    init(_ bytes: [UInt8]) {
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
            let name: Substring
            var value: Substring
            if let colon = text.firstIndex(of: ":") {
                name = text[..<colon]
                value = text[text.index(after: colon)...]
                if value.first == " " { value = value.dropFirst() }
            } else {
                name = text[...]
                value = ""
            }
            switch name {
            case "": items.append(.comment(String(value)))
            case "data": data += value + "\n"
            case "event": eventType = String(value)
            case "id" where !value.contains("\0"): idBuffer = String(value)
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

/// A small seeded random generator (SplitMix64), so generated streams are reproducible.
struct SSESeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random event stream made of the pieces the algorithm treats specially.
    mutating func stream(lines: Int) -> [UInt8] {
        let names = ["data", "data", "data", "event", "id", "retry", "", "dat", "DATA", "data ", "x"]
        let values: [[UInt8]] = [
            Array("x".utf8), Array("hello".utf8), Array("€".utf8), Array("😀".utf8), [0], Array(" ".utf8),
            Array(":".utf8), Array("42".utf8), Array("\u{FEFF}".utf8), [0xFF], [0xE2, 0x82], Array("007".utf8),
            Array(String(repeating: "long", count: 25).utf8),  // past the inline search for line endings
        ]
        let endings: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A]]
        var bytes: [UInt8] = Bool.random(using: &self) ? [0xEF, 0xBB, 0xBF] : []
        for _ in 0..<lines {
            if Int.random(in: 0..<4, using: &self) == 0 {
                bytes += endings.randomElement(using: &self)!  // a blank line
                continue
            }
            bytes += names.randomElement(using: &self)!.utf8
            if Int.random(in: 0..<8, using: &self) != 0 { bytes.append(0x3A) }
            if Bool.random(using: &self) { bytes.append(0x20) }
            for _ in 0..<Int.random(in: 0..<4, using: &self) { bytes += values.randomElement(using: &self)! }
            bytes += endings.randomElement(using: &self)!
        }
        return bytes
    }
}
