extension CitationProcessor {
    /// An opening bracket and what followed it, while it may still be a citation.
    struct Candidate: Sendable {
        var raw = String.UnicodeScalarView(["["])
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
    mutating func extend(_ candidate: Candidate, with scalar: Unicode.Scalar) {
        var candidate = candidate
        if candidate.closed {
            // `[1](url)` is a link and `[1]: url` at a line's start a reference definition: text.
            if scalar == "(" || (scalar == ":" && candidate.atLineStart) {
                abandon(candidate)
            } else {
                resolve(candidate)
            }
            return consume(scalar)
        }
        switch scalar {
        case "0"..."9" where candidate.digits < Candidate.maxDigits:
            candidate.digits += 1
            candidate.value = candidate.value * 10 + Int(scalar.value - 48)
        case "," where candidate.digits > 0 && candidate.numbers.count < Candidate.maxNumbers:
            candidate.numbers.append(candidate.value)
            (candidate.digits, candidate.value) = (0, 0)
        case " " where candidate.digits == 0 && candidate.raw.last == ",":
            break
        case "]" where candidate.digits > 0:
            candidate.numbers.append(candidate.value)
            candidate.closed = true
        default:
            abandon(candidate)
            return consume(scalar)
        }
        candidate.raw.append(scalar)
        self.candidate = candidate
    }

    /// The bracket was not a citation: send it as text.
    mutating func abandon(_ candidate: Candidate) {
        for scalar in candidate.raw { send(scalar) }
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
            out.append(contentsOf: "[\(number)]".unicodeScalars)
            claims.cite(ordinal: ordinal, source: number)
        }
        lastSent = "]"
        afterDrop = false
    }
}
