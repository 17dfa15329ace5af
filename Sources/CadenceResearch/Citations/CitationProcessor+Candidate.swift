import CadenceMarkdown

extension CitationProcessor {
    /// An opening bracket and what followed it, while it may still be a citation.
    struct Candidate: Sendable {
        var raw: [UInt8] = [.openBracket]
        var numbers: [Int] = []
        var digits = 0
        var value = 0
        var closed = false
        var atLineStart: Bool

        init(atLineStart: Bool) { self.atLineStart = atLineStart }

        static let maxDigits = 4
        static let maxNumbers = 16
    }

    /// The next character after an open candidate.
    mutating func extend(_ candidate: Candidate, with byte: UInt8) {
        var candidate = candidate
        if candidate.closed {
            // `[1](url)` is a link and `[1]: url` at a line's start a reference definition: text.
            if byte == UInt8(ascii: "(") || (byte == UInt8(ascii: ":") && candidate.atLineStart) {
                abandon(candidate)
            } else {
                resolve(candidate)
            }
            return consume(byte)
        }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9") where candidate.digits < Candidate.maxDigits:
            candidate.digits += 1
            candidate.value = candidate.value * 10 + Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: ",") where candidate.digits > 0 && candidate.numbers.count < Candidate.maxNumbers:
            candidate.numbers.append(candidate.value)
            (candidate.digits, candidate.value) = (0, 0)
        case .space where candidate.digits == 0 && candidate.raw.last == UInt8(ascii: ","):
            break
        case .closeBracket where candidate.digits > 0:
            candidate.numbers.append(candidate.value)
            candidate.closed = true
        default:
            abandon(candidate)
            return consume(byte)
        }
        candidate.raw.append(byte)
        self.candidate = candidate
    }

    /// The bracket was not a citation: send it as text.
    mutating func abandon(_ candidate: Candidate) {
        for byte in candidate.raw { send(byte) }
    }

    /// A complete citation: send the numbers that name sources, drop the others.
    mutating func resolve(_ candidate: Candidate) {
        let valid = candidate.numbers.filter { sourceStems.indices.contains($0 - 1) }
        dropped += candidate.numbers.filter { !sourceStems.indices.contains($0 - 1) }
        guard !valid.isEmpty else {
            afterDrop = true
            return
        }
        flushSpace()
        for number in valid {
            ordinal += 1
            out.append(contentsOf: "[\(number)]".utf8)
            claims.cite(ordinal: ordinal, source: number)
        }
        sentSpace = false
        afterDrop = false
    }
}
