/// The unit boundaries the segmenter found and the screen has not passed yet, in order, in about one
/// byte each.
///
/// A boundary is kept as its distance in UTF-8 bytes from the one before and the index of its pause
/// in the segmenter's pause table, written as a variable-length integer (`distance << 2 | pause`,
/// seven bits a byte): one byte for a unit shorter than 32 bytes, which is nearly every word, ideograph
/// or cluster. Its offset in Unicode scalars is not kept but counted from the text when it is read
/// (every byte that does not continue a scalar starts one), so reading needs the text from ``base``
/// on. Reading a boundary costs O(its unit's bytes); what the screen has passed is dropped, and the
/// storage shrinks with it.
struct PendingBoundaries: Sendable {
    /// The pause after a unit, in milliseconds, by the index a boundary keeps.
    private let pauses: [Double]
    private var bytes: [UInt8] = []
    /// Where the first live boundary starts in `bytes`.
    private var start = 0
    /// The boundary the first live one is measured from: the last one dropped (or the text's start).
    private(set) var base = UnitBoundary.start

    /// `pauses` lists every pause a boundary may have, at most four.
    init(pauses: [Double]) {
        precondition(!pauses.isEmpty && pauses.count <= 4, "a boundary keeps its pause in two bits")
        self.pauses = pauses
    }

    var isEmpty: Bool { start == bytes.count }

    /// The bytes held, spare capacity included (for tests of what the pacer keeps).
    var storageBytes: Int { bytes.capacity }

    /// Adds `boundary`, which follows `previous`, the boundary added before it (or ``base`` if none is live).
    mutating func append(_ boundary: UnitBoundary, after previous: UnitBoundary) {
        guard let pause = pauses.firstIndex(of: boundary.pauseAfter) else {
            preconditionFailure("pause \(boundary.pauseAfter) ms is not in the pause table")
        }
        var value = UInt(boundary.utf8Offset - previous.utf8Offset) << 2 | UInt(pause)
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// The first boundary at or after `scalarOffset` (or strictly after, if `strictly`). `text` is the
    /// received text from UTF-8 offset `textStart` (at most `base.utf8Offset`) on.
    func first(from scalarOffset: Double, strictly: Bool, in text: String, from textStart: Int) -> UnitBoundary? {
        var reader = Reader(self, text: text, textStart: textStart)
        while let boundary = reader.next() {
            let offset = Double(boundary.scalarOffset)
            if offset > scalarOffset || (!strictly && offset == scalarOffset) { return boundary }
        }
        return nil
    }

    /// Drops the boundaries at or before `scalarOffset` (the screen has passed them), and the storage
    /// they took once it is at least half of what is held.
    mutating func drop(through scalarOffset: Int, in text: String, from textStart: Int) {
        var reader = Reader(self, text: text, textStart: textStart)
        while let boundary = reader.next(), boundary.scalarOffset <= scalarOffset {
            base = boundary
            start = reader.position
        }
        if start == bytes.count {
            bytes = []
            start = 0
        } else if start >= 64, start * 2 >= bytes.count {
            bytes = Array(bytes[start...])
            start = 0
        }
    }

    /// Decodes the live boundaries in order, counting each one's scalars in the text.
    private struct Reader {
        let boundaries: PendingBoundaries
        let utf8: String.UTF8View
        private(set) var position: Int
        private var current: UnitBoundary
        private var index: String.Index

        init(_ boundaries: PendingBoundaries, text: String, textStart: Int) {
            self.boundaries = boundaries
            utf8 = text.utf8
            position = boundaries.start
            current = boundaries.base
            index = utf8.index(utf8.startIndex, offsetBy: boundaries.base.utf8Offset - textStart)
        }

        mutating func next() -> UnitBoundary? {
            let bytes = boundaries.bytes
            guard position < bytes.count else { return nil }
            var value: UInt = 0
            var shift: UInt = 0
            while true {
                let byte = bytes[position]
                position += 1
                value |= UInt(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let length = Int(value >> 2)
            let end = utf8.index(index, offsetBy: length)
            var scalars = 0
            for byte in utf8[index..<end] where byte & 0xC0 != 0x80 { scalars += 1 }
            index = end
            current = UnitBoundary(
                scalarOffset: current.scalarOffset + scalars, utf8Offset: current.utf8Offset + length,
                pauseAfter: boundaries.pauses[Int(value & 3)])
            return current
        }
    }
}
