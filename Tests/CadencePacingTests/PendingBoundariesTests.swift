import Testing

@testable import CadencePacing

/// The boundaries a pacer has not passed take about a byte each (a distance and a pause index in a
/// variable-length integer), not a 24-byte `UnitBoundary`: a 100 KB answer's backlog costs about
/// 20 KB, not 480 KB. And reading them back gives the boundaries the segmenter found.
@Suite struct PendingBoundariesTests {
    static let answer = (0..<20_000).map { "word\($0 % 97) " }.joined()

    @Test func anUnshownAnswerKeepsAboutAByteABoundary() {
        var pacer = DisplayPacer()
        pacer.append(Self.answer)
        let words = 20_000
        let bytes = pacer.segmenter.pendingStorageBytes
        #expect(bytes >= words, "one byte at least per boundary: \(bytes)")
        #expect(bytes <= 2 * words, "\(bytes) bytes for \(words) boundaries")
    }

    @Test func boundariesReadBackInOrderWithTheirScalarOffsets() {
        var boundaries = PendingBoundaries(pauses: [0, 10, 40])
        let text = "héllo wörld, a 🇫🇷 flag and a word of forty letters aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa "
        var previous = UnitBoundary.start
        var expected: [UnitBoundary] = []
        var scalars = 0
        var utf8 = 0
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).dropLast().enumerated() {
            scalars += word.unicodeScalars.count + 1
            utf8 += word.utf8.count + 1
            let boundary = UnitBoundary(scalarOffset: scalars, utf8Offset: utf8, pauseAfter: index % 2 == 0 ? 10 : 40)
            boundaries.append(boundary, after: previous)
            expected.append(boundary)
            previous = boundary
        }
        var read: [UnitBoundary] = []
        var from = -1.0
        while let next = boundaries.first(from: from, strictly: true, in: text, from: 0) {
            read.append(next)
            from = Double(next.scalarOffset)
        }
        #expect(read == expected)
        boundaries.drop(through: expected[2].scalarOffset, in: text, from: 0)
        #expect(boundaries.first(from: 0, strictly: false, in: text, from: 0) == expected[3])
        #expect(boundaries.base == expected[2])
    }
}
