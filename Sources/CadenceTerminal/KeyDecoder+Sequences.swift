/// Escape sequences: CSI (`ESC [`), SS3 (`ESC O`), SGR mouse reports and bracketed paste.
extension KeyDecoder {
    /// An `ESC` at `index`. Returns the bytes consumed, or `nil` when more are needed.
    mutating func escapeStep(at index: Int, into events: inout [KeyEvent]) -> Int? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            return csiStep(at: index, into: &events)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return nil }
            if let key = Self.ss3Key(pending[index + 2]) { events.append(key) }
            return 3
        case 0x1B:
            events.append(.escape)  // Escape pressed twice, or Escape then a sequence
            return 1
        default:
            // Alt+key: the Escape, then the key decoded on its own.
            events.append(.escape)
            return 1
        }
    }

    /// `ESC [ parameters intermediates final`.
    private mutating func csiStep(at index: Int, into events: inout [KeyEvent]) -> Int? {
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            if (0x40...0x7E).contains(byte) { break }
            guard (0x20...0x3F).contains(byte) else {
                return end - index  // not a sequence byte: drop what came before it
            }
            end += 1
            if end - index > Self.maximumSequenceLength {
                isDiscarding = true
                return end - index
            }
        }
        guard end < pending.count else { return nil }
        let parameters = pending[(index + 2)..<end]
        let final = pending[end]
        var consumed = end - index + 1
        if final == UInt8(ascii: "M"), parameters.isEmpty {
            // X10 mouse report: three bytes follow. Dropped (SGR reports are asked for).
            guard index + consumed + 3 <= pending.count else { return nil }
            consumed += 3
            return consumed
        }
        if parameters.first == UInt8(ascii: "<") {
            if final == UInt8(ascii: "M"), let key = Self.mouseKey(parameters.dropFirst()) { events.append(key) }
            return consumed
        }
        if final == UInt8(ascii: "~"), Self.numbers(parameters).first == 200 {
            paste = []
            return consumed
        }
        if let key = Self.csiKey(final: final, parameters: parameters) { events.append(key) }
        return consumed
    }

    /// Collects pasted bytes up to `ESC [ 201 ~`.
    mutating func pasteStep(at index: Int, into events: inout [KeyEvent]) -> Int? {
        let rest = pending[index...]
        if let end = Self.firstRange(of: Self.pasteEnd, in: rest) {
            paste!.append(contentsOf: pending[index..<end])
            let text = String(decoding: paste!, as: UTF8.self)
                .replacingCRLF()
            paste = nil
            if !text.isEmpty { events.append(.paste(text)) }
            return end - index + Self.pasteEnd.count
        }
        // Keep a tail that could be the start of the end marker; take the rest into the paste.
        let keep = Self.markerPrefixLength(at: rest)
        let take = rest.count - keep
        if paste!.count < Self.maximumPasteLength { paste!.append(contentsOf: rest.prefix(take)) }
        return take == 0 ? nil : take
    }

    static func firstRange(of marker: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var start = bytes.startIndex
        while start + marker.count <= bytes.endIndex {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return start }
            start += 1
        }
        return nil
    }

    /// How many bytes at the end of `bytes` are a proper prefix of the paste end marker.
    static func markerPrefixLength(at bytes: ArraySlice<UInt8>) -> Int {
        for length in stride(from: min(pasteEnd.count - 1, bytes.count), to: 0, by: -1)
        where bytes.suffix(length).elementsEqual(pasteEnd.prefix(length)) {
            return length
        }
        return 0
    }

    static func numbers(_ parameters: ArraySlice<UInt8>) -> [Int] {
        parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            field.reduce(0) { value, byte in
                (0x30...0x39).contains(byte) ? min(value * 10 + Int(byte - 0x30), 1_000_000) : value
            }
        }
    }

    static func csiKey(final: UInt8, parameters: ArraySlice<UInt8>) -> KeyEvent? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch numbers(parameters).first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            default: return nil
            }
        default:
            return nil
        }
    }

    static func ss3Key(_ final: UInt8) -> KeyEvent? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// `ESC [ < button ; x ; y M`: only the wheel (buttons 64 and 65, with any modifier bits).
    static func mouseKey(_ parameters: ArraySlice<UInt8>) -> KeyEvent? {
        guard let button = numbers(parameters).first else { return nil }
        switch button & ~0b0001_1100 {
        case 64: return .wheelUp
        case 65: return .wheelDown
        default: return nil
        }
    }
}

extension String {
    /// `"\r\n"` and lone `"\r"` as `"\n"`.
    func replacingCRLF() -> String {
        guard contains("\r") || unicodeScalars.contains("\r") else { return self }
        var out = ""
        var previousWasCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.unicodeScalars.append("\n")
                previousWasCR = true
            } else {
                if !(scalar == "\n" && previousWasCR) { out.unicodeScalars.append(scalar) }
                previousWasCR = false
            }
        }
        return out
    }
}
