/// Turns the bytes read from a terminal in raw mode into ``KeyEvent``s, incrementally.
///
/// Bytes may come in any chunks: a UTF-8 character, an escape sequence or a bracketed paste split
/// across reads is kept until it is whole, and the result never depends on the chunking. Unknown
/// escape sequences are dropped; malformed bytes are skipped; nothing throws or traps.
///
/// An `ESC` at the end of a read may be the Escape key or the start of a sequence whose rest is
/// still on its way. It stays pending (``hasPendingInput``) until more bytes come or the owner
/// decides the keyboard has been quiet long enough (some 50 ms) and calls ``flush()``.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed(Array("hi\u{1B}[".utf8))   // [.text("hi")]  (the arrow key's start is kept)
/// decoder.feed([0x41])                     // [.up]
/// decoder.feed([0x1B])                     // []  (Escape, or the start of a sequence?)
/// decoder.flush()                          // [.escape]
/// ```
public struct KeyDecoder: Sendable {
    /// The longest escape sequence kept; a longer one is dropped as garbage.
    static let maximumSequenceLength = 64
    /// Pasted bytes past this are dropped (the paste still ends at its end marker).
    static let maximumPasteLength = 1 << 20
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Bytes received but not decoded yet: an incomplete character or sequence.
    var pending: [UInt8] = []
    /// Inside a bracketed paste: the pasted bytes so far.
    var paste: [UInt8]?
    /// Skipping the rest of a sequence that ran too long, up to its final byte.
    var isDiscarding = false

    public init() {}

    /// Whether bytes wait for the rest of a sequence (or a paste is open).
    public var hasPendingInput: Bool { !pending.isEmpty || paste != nil }

    /// Decodes `bytes` after everything fed before.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [KeyEvent] {
        pending.append(contentsOf: bytes)
        var events: [KeyEvent] = []
        var index = 0
        while index < pending.count {
            guard let consumed = step(at: index, into: &events) else { break }
            index += consumed
        }
        pending.removeFirst(index)
        return Self.merged(events)
    }

    /// The keyboard went quiet: a lone pending `ESC` is the Escape key, and any other incomplete
    /// sequence is dropped. An open paste stays open (its end marker is still coming).
    public mutating func flush() -> [KeyEvent] {
        guard paste == nil, !pending.isEmpty else { return [] }
        defer { pending.removeAll() }
        // A lone ESC is the key; an unfinished sequence or UTF-8 character will never finish.
        return pending == [0x1B] ? [.escape] : []
    }

    /// Decodes one key at `index`. Returns the bytes consumed, or `nil` when more bytes are needed.
    private mutating func step(at index: Int, into events: inout [KeyEvent]) -> Int? {
        if paste != nil { return pasteStep(at: index, into: &events) }
        let byte = pending[index]
        if isDiscarding {
            if (0x20...0x3F).contains(byte) { return 1 }
            isDiscarding = false
            if (0x40...0x7E).contains(byte) { return 1 }
        }
        switch byte {
        case 0x1B:
            return escapeStep(at: index, into: &events)
        case 0x0D, 0x0A:
            events.append(.enter)
            return 1
        case 0x09:
            events.append(.tab)
            return 1
        case 0x7F, 0x08:
            events.append(.backspace)
            return 1
        case 0x01...0x1A:
            events.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            return 1
        case 0x00, 0x1C...0x1F:
            return 1  // Ctrl-@, Ctrl-\ … : not used
        default:
            return textStep(at: index, into: &events)
        }
    }

    /// One UTF-8 character.
    private func textStep(at index: Int, into events: inout [KeyEvent]) -> Int? {
        let length = Self.utf8Length(lead: pending[index])
        guard length > 0 else { return 1 }  // a stray continuation byte or an invalid lead
        guard index + length <= pending.count else { return nil }
        var bytes = pending[index..<index + length].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return 1 }
        if scalar.value >= 0x80 && scalar.value < 0xA0 { return length }  // C1 controls
        events.append(.text(String(scalar)))
        return length
    }

    static func utf8Length(lead: UInt8) -> Int {
        switch lead {
        case 0x00..<0x80: 1
        case 0xC2..<0xE0: 2
        case 0xE0..<0xF0: 3
        case 0xF0..<0xF5: 4
        default: 0
        }
    }

    /// Joins consecutive text events, and the scalars of one grapheme cluster.
    package static func merged(_ events: [KeyEvent]) -> [KeyEvent] {
        var out: [KeyEvent] = []
        for event in events {
            if case .text(let next) = event, case .text(let previous)? = out.last {
                out[out.count - 1] = .text(previous + next)
            } else {
                out.append(event)
            }
        }
        return out
    }
}
