/// What the segmenter needs to know about one grapheme cluster (a Swift `Character`).
///
/// The first scalar decides the script class (a cluster's first scalar is its base), except that a
/// keycap or an emoji presentation selector makes any cluster an emoji. A cluster still arriving
/// may only gain that, so a cut decided before it completes stays right.
struct CharacterTraits: Sendable, Equatable {
    /// Space, tab, CR or LF: the whitespace set the pacing lab uses for word boundaries.
    var isWhitespace = false
    /// LF or CR LF: ends a line.
    var isNewline = false
    /// A backtick, which can start a code fence line.
    var isBacktick = false
    /// A unit of its own, with a cut allowed on either side, in a script written without spaces
    /// between words (see ``Script``).
    var isOwnUnit = false
    /// Closing punctuation that must stay with the text before it (`。`, `)`, `,` …).
    var forbidsBreakBefore = false
    /// Opening punctuation that must stay with the text after it (`「`, `(` …).
    var forbidsBreakAfter = false
    /// `,.!?;:`: the seed 000 typewriter pauses after these.
    var isClausePunctuation = false
    /// Ends a word that is almost certainly finished: clause punctuation, closing brackets, quotes.
    var endsFinishedWord = false

    init(_ character: Character) {
        guard let first = character.unicodeScalars.first else { return }
        let value = first.value
        switch character {
        case " ", "\t", "\r":
            isWhitespace = true
        case "\n", "\r\n":
            isWhitespace = true
            isNewline = true
        default:
            break
        }
        isBacktick = value == 0x60
        isClausePunctuation = character.unicodeScalars.count == 1 && Self.clausePunctuation.contains(value)
        // A keycap (`1️⃣`) or another emoji presentation of an ASCII symbol is an emoji, not a word.
        isOwnUnit =
            Script(first).isOwnUnit || character.unicodeScalars.contains { $0.value == 0x20E3 || $0.value == 0xFE0F }
        forbidsBreakBefore = Self.closing.contains(value)
        forbidsBreakAfter = Self.opening.contains(value)
        endsFinishedWord = Self.finishing.contains(value)
    }

    private static let clausePunctuation: Set<UInt32> = [0x2C, 0x2E, 0x21, 0x3F, 0x3B, 0x3A]

    /// ASCII and CJK closing punctuation (line-break classes CL, CP, EX, IS, NS in UAX #14, abridged).
    private static let closing: Set<UInt32> = Set(
        ",.!?:;)]}%".unicodeScalars.map(\.value)
            + "、。，．！？：；）」』】〕〉》〙〗〟’”…‥ー々〜ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ"
            .unicodeScalars.map(\.value)
    )

    /// Marks that end a finished word: clause punctuation, closing brackets and quotes (ASCII and CJK).
    private static let finishing: Set<UInt32> = Set(
        ",.!?;:)]}\"'”’」』】）、。，．！？：；…".unicodeScalars.map(\.value)
    )

    /// ASCII and CJK opening punctuation (classes OP and QU-opening, abridged).
    private static let opening: Set<UInt32> = Set("([{（「『【〔〈《〘〖‘“".unicodeScalars.map(\.value))
}

/// How a script separates words, which decides its display units.
///
/// Built from the standard library alone (`Unicode.Scalar.Properties` and code-point ranges):
/// Foundation's word enumeration is unavailable on Linux. Only a cluster's first scalar is
/// looked at; a unit is always whole grapheme clusters (`Character`), so an emoji ZWJ
/// sequence, a flag, a skin tone or a base with its combining marks is never cut.
enum Script: Equatable {
    /// Words separated by spaces (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari …):
    /// a word is a unit.
    case spaced
    /// A CJK ideograph (or CJK punctuation, a fullwidth form): each is a unit, as each is
    /// a line-break opportunity.
    case ideograph
    /// Kana and Hangul: each syllable is a unit. Korean puts spaces between words, but a
    /// syllable is small enough to read on its own and a word may be long to arrive.
    case syllabary
    /// Thai, Lao, Khmer, Myanmar and others written without spaces and without ideographs:
    /// where the words end needs a dictionary, so each grapheme cluster is a unit.
    case unspaced
    /// A pictographic emoji or a flag: a unit of its own.
    case emoji

    /// A unit of its own: every script but the spaced ones.
    var isOwnUnit: Bool { self != .spaced }

    init(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x0E00 { self = .spaced; return }
        let properties = scalar.properties
        if properties.isIdeographic || Self.ideographic.contains(where: { $0.contains(value) }) {
            self = .ideograph
        } else if Self.syllabic.contains(where: { $0.contains(value) }) {
            self = .syllabary
        } else if Self.unspacedScripts.contains(where: { $0.contains(value) }) {
            self = .unspaced
        } else if (0x1F1E6...0x1F1FF).contains(value) || (value >= 0x2190 && properties.isEmoji) {
            // Regional indicators (flags) and pictographic bases from the arrows block on. Keycaps
            // (`1️⃣`) and `#️⃣` have an ASCII base and stay with their neighbours.
            self = .emoji
        } else {
            self = .spaced
        }
    }

    /// CJK code points without the Ideographic property that still break like ideographs.
    private static let ideographic: [ClosedRange<UInt32>] = [
        0x2E80...0x2FDF,  // CJK and Kangxi radicals
        0x3000...0x303F,  // CJK symbols and punctuation
        0x3100...0x312F, 0x31A0...0x31BF,  // Bopomofo
        0x31C0...0x31EF,  // CJK strokes
        0x3200...0x33FF,  // enclosed CJK letters, CJK compatibility
        0xFE30...0xFE4F,  // CJK compatibility forms
        0xFF00...0xFF60, 0xFFE0...0xFFEF,  // fullwidth forms
    ]

    /// Kana and Hangul (syllables, jamo, compatibility jamo, halfwidth forms).
    private static let syllabic: [ClosedRange<UInt32>] = [
        0x1100...0x11FF,  // Hangul jamo
        0x3040...0x30FF,  // Hiragana, Katakana
        0x3130...0x318F,  // Hangul compatibility jamo
        0x31F0...0x31FF,  // Katakana phonetic extensions
        0xA960...0xA97F,  // Hangul jamo extended A
        0xAC00...0xD7FF,  // Hangul syllables, jamo extended B
        0xFF61...0xFFDC,  // halfwidth katakana and Hangul
        0x1B000...0x1B16F,  // kana supplement and extended
    ]

    /// Scripts written without spaces between words and without ideographs.
    private static let unspacedScripts: [ClosedRange<UInt32>] = [
        0x0E00...0x0E7F,  // Thai
        0x0E80...0x0EFF,  // Lao
        0x0F00...0x0FFF,  // Tibetan (a tsheg separates syllables, not words)
        0x1000...0x109F,  // Myanmar
        0x1780...0x17FF, 0x19E0...0x19FF,  // Khmer, Khmer symbols
        0x1950...0x19DF,  // Tai Le, New Tai Lue
        0x1A20...0x1AAF,  // Tai Tham
        0x1B00...0x1B7F,  // Balinese
        0xA980...0xA9DF,  // Javanese
        0xA9E0...0xA9FF,  // Myanmar extended B
        0xAA60...0xAADF,  // Myanmar extended A, Tai Viet
    ]
}
