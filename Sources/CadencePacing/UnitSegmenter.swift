/// A place where the visible text may end, and how long the unit ending there holds the
/// screen before the next one (used by the typewriter and word-by-word modes).
struct UnitBoundary: Sendable, Equatable {
    /// Offset in Unicode scalars (what the pacing lab counts).
    var scalarOffset: Int
    /// Offset in UTF-8 code units, for O(1) `String.Index` construction.
    var utf8Offset: Int
    /// Pause after the unit that ends here, in milliseconds.
    var pauseAfter: Double = 0

    static let start = UnitBoundary(scalarOffset: 0, utf8Offset: 0)
}

/// Splits growing text into display units incrementally: each appended chunk costs
/// O(chunk), never a rescan of the whole text.
///
/// Rules, by granularity:
/// - `words` (adaptive mode): a unit is a word with the whitespace after it, in scripts that
///   space their words. Elsewhere the unit follows the script (``Script``): each CJK
///   ideograph, each kana or Hangul syllable, each grapheme cluster of Thai, Lao, Khmer or
///   Myanmar, each emoji, except that closing punctuation stays with the text before it and
///   opening punctuation with the text after it.
///   Inside a ```` ``` ```` fence (a line starting with three backticks, up to the next one) a
///   unit is a whole line with its LF. Citation markers such as `[1][2]` contain no
///   whitespace, so they never split.
/// - `wordsAndSpaces` (word mode, seed 002): words and whitespace runs are separate units;
///   citation markers stay with their word, so `[1][2]` is one atomic unit; code lines stay
///   whole.
/// - `graphemes` (typewriter and instant modes): every grapheme cluster.
///
/// Every cut falls between grapheme clusters. The last cluster of the text received so far
/// may still grow (a combining accent or the rest of a ZWJ sequence can follow), so it is
/// settled only when more text arrives or the stream ends, unless ``ClusterGrowth`` says nothing
/// extends it in practice (whitespace, an ideograph, a Hangul syllable, most kana, a complete
/// emoji), and then it settles at once.
struct UnitSegmenter: Sendable {
    enum Granularity: Sendable {
        case words, wordsAndSpaces, graphemes
    }

    enum Pauses: Sendable {
        case none, typewriter, wordByWord

        /// Every pause a unit may have, in milliseconds (the end of the text has none).
        var durations: [Double] {
            switch self {
            case .none: [0]
            case .typewriter: [0, 5, 8, 50]
            case .wordByWord: [0, 10, 40]
            }
        }
    }

    let granularity: Granularity
    let pauses: Pauses
    let maximumUnitLength: Int

    private(set) var text = ""
    private(set) var receivedScalars = 0
    private(set) var receivedUTF8 = 0
    private(set) var isFinished = false

    private var scannedScalars = 0
    private var scannedUTF8 = 0
    private var previous: CharacterTraits?
    private var fenceOpen = false
    private var lineIsFence = false
    private var lineBackticks: Int? = 0
    private var unitStart = 0
    private var unitIsBlank = true
    private var codeToken: UnitBoundary?

    /// Boundaries not yet consumed, ascending, about a byte each (a `UnitBoundary` is 24).
    private var pending: PendingBoundaries
    private(set) var lastEmitted = UnitBoundary.start

    init(granularity: Granularity, pauses: Pauses, maximumUnitLength: Int) {
        self.granularity = granularity
        self.pauses = pauses
        self.maximumUnitLength = max(1, maximumUnitLength)
        pending = PendingBoundaries(pauses: pauses.durations)
    }

    // MARK: Input

    mutating func append(_ chunk: some StringProtocol) {
        guard !isFinished, !chunk.isEmpty else { return }
        text.append(contentsOf: chunk)
        receivedScalars += chunk.unicodeScalars.count
        receivedUTF8 += chunk.utf8.count
        scan(settlingLast: false)
    }

    /// The stream ended: the last cluster is settled and the end becomes a boundary.
    mutating func finish() {
        guard !isFinished else { return }
        scan(settlingLast: true)
        isFinished = true
        if receivedScalars > lastEmitted.scalarOffset {
            emit(UnitBoundary(scalarOffset: receivedScalars, utf8Offset: receivedUTF8, pauseAfter: 0))
        }
    }

    // MARK: Queries

    /// The furthest place the text may be cut right now, without waiting for more text.
    var committableEnd: UnitBoundary {
        if let open = openEnd { return open }
        return lastEmitted
    }

    /// The last token boundary (after whitespace, before the next token) inside the code
    /// line being received, if it is past `lastEmitted`: where `codeTokenRelease` may cut.
    var codeTokenEnd: UnitBoundary? {
        guard let token = codeToken, token.scalarOffset > lastEmitted.scalarOffset, !isFinished else { return nil }
        return token
    }

    /// True while the unsettled tail (the text after `committableEnd`) is inside a code line.
    var tailIsCode: Bool { fenceOpen || lineIsFence }

    /// How far a release by network silence may go: the whole received text, except a last
    /// cluster that is visibly unfinished (it ends with a zero-width joiner, is a single regional
    /// indicator waiting for its pair, or an open tag sequence).
    var releasableEnd: UnitBoundary {
        let end = UnitBoundary(scalarOffset: receivedScalars, utf8Offset: receivedUTF8)
        guard let last = unsettledCluster, ClusterGrowth(last) == .unfinished else { return end }
        return UnitBoundary(scalarOffset: scannedScalars, utf8Offset: scannedUTF8)
    }

    /// The last cluster received, while it may still grow (not yet scanned).
    private var unsettledCluster: Character? {
        guard !isFinished, scannedScalars < receivedScalars else { return nil }
        return text.last
    }

    /// Bytes the pending boundaries take, spare capacity included (for the tests of what a pacer keeps).
    var pendingStorageBytes: Int { pending.storageBytes }

    /// The first pending boundary at or after `scalarOffset` (or strictly after, if `strictly`).
    func firstBoundary(from scalarOffset: Double, strictly: Bool = false) -> UnitBoundary? {
        if let boundary = pending.first(from: scalarOffset, strictly: strictly, in: text, from: 0) {
            return boundary
        }
        if let open = openEnd, Double(open.scalarOffset) > scalarOffset { return open }
        return nil
    }

    /// Forgets boundaries at or before `scalarOffset` (they are already visible).
    mutating func discard(through scalarOffset: Int) {
        pending.drop(through: scalarOffset, in: text, from: 0)
    }

    /// A cut at the very end of the received text, when the rules already allow it
    /// (after a settled space or LF in prose, after a LF in code, any cluster end in
    /// grapheme granularity).
    private var openEnd: UnitBoundary? {
        guard !isFinished, scannedScalars == receivedScalars, scannedScalars > lastEmitted.scalarOffset,
            let previous
        else { return nil }
        switch granularity {
        case .graphemes:
            break
        case .words:
            let endsUnit =
                previous.isNewline
                || (!tailIsCode && (previous.isWhitespace || (previous.isOwnUnit && !previous.forbidsBreakAfter)))
            guard endsUnit else { return nil }
        case .wordsAndSpaces:
            return nil
        }
        return UnitBoundary(scalarOffset: scannedScalars, utf8Offset: scannedUTF8, pauseAfter: pause(closing: previous))
    }

    // MARK: Scanning

    private mutating func scan(settlingLast: Bool) {
        let utf8 = text.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: scannedUTF8)
        while index < text.endIndex {
            let next = text.index(after: index)
            let character = text[index]
            if next == text.endIndex, !settlingLast, !Self.settlesAtOnce(character) {
                // The last cluster may still grow, but it cannot merge with the one before:
                // the cut in front of it is already decided.
                emitBoundary(before: CharacterTraits(character))
                break
            }
            process(
                CharacterTraits(character),
                scalars: character.unicodeScalars.count,
                utf8: character.utf8.count
            )
            index = next
        }
    }

    /// Whether the cut after `character`, the last cluster received, is decided without waiting for
    /// the next scalar (``ClusterGrowth``). An ideographic variation selector, or a conjoining jamo
    /// after a syllable, arriving after a pause is the one case in which a settled cluster grows
    /// after it was shown; NFC text, which models write, has neither.
    static func settlesAtOnce(_ character: Character) -> Bool {
        ClusterGrowth(character) == .settled
    }

    /// Emits the boundary in front of a cluster with these traits, if the rules allow one.
    /// Only the cluster's first scalar matters, so this is safe for an unsettled cluster.
    private mutating func emitBoundary(before traits: CharacterTraits) {
        guard let previous, scannedScalars > lastEmitted.scalarOffset,
            mayCut(before: traits, after: previous, atLineStart: previous.isNewline)
        else { return }
        emit(UnitBoundary(scalarOffset: scannedScalars, utf8Offset: scannedUTF8, pauseAfter: pause(closing: previous)))
    }

    private mutating func process(_ traits: CharacterTraits, scalars: Int, utf8: Int) {
        let atLineStart = previous?.isNewline ?? true
        if atLineStart {
            lineIsFence = false
            lineBackticks = 0
        }
        emitBoundary(before: traits)
        if atLineStart {
            codeToken = nil
        } else if tailIsCode, let previous, previous.isWhitespace, !traits.isWhitespace {
            codeToken = UnitBoundary(scalarOffset: scannedScalars, utf8Offset: scannedUTF8)
        }
        if let backticks = lineBackticks {
            if traits.isBacktick {
                lineBackticks = backticks + 1
                if backticks + 1 == 3 {
                    lineIsFence = true
                    lineBackticks = nil
                }
            } else {
                lineBackticks = nil
            }
        }
        unitIsBlank = unitIsBlank && traits.isWhitespace
        previous = traits
        scannedScalars += scalars
        scannedUTF8 += utf8
        if traits.isNewline {
            if lineIsFence { fenceOpen.toggle() }
            lineIsFence = false
        }
    }

    private func mayCut(before next: CharacterTraits, after previous: CharacterTraits, atLineStart: Bool) -> Bool {
        if granularity == .graphemes || atLineStart { return true }
        if scannedScalars - unitStart >= maximumUnitLength { return true }
        if tailIsCode { return false }
        let scriptBreak =
            !previous.isWhitespace && !next.isWhitespace
            && (previous.isOwnUnit || next.isOwnUnit)
            && !next.forbidsBreakBefore && !previous.forbidsBreakAfter
        switch granularity {
        case .words:
            return (previous.isWhitespace && !next.isWhitespace) || scriptBreak
        case .wordsAndSpaces:
            return previous.isWhitespace != next.isWhitespace || scriptBreak
        case .graphemes:
            return true
        }
    }

    private func pause(closing previous: CharacterTraits) -> Double {
        switch pauses {
        case .none:
            return 0
        case .typewriter:
            if previous.isClausePunctuation { return 50 }
            return previous.isWhitespace && !previous.isNewline ? 5 : 8
        case .wordByWord:
            return unitIsBlank ? 10 : 40
        }
    }

    private mutating func emit(_ boundary: UnitBoundary) {
        pending.append(boundary, after: lastEmitted)
        lastEmitted = boundary
        unitStart = boundary.scalarOffset
        unitIsBlank = true
    }
}
