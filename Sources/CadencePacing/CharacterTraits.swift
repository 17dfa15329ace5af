/// What the segmenter needs to know about one grapheme cluster (a Swift `Character`).
///
/// Only the first scalar decides the script class, which is enough for cluster starts
/// (a cluster's first scalar is its base).
struct CharacterTraits: Sendable, Equatable {
    /// Space, tab, CR or LF: the whitespace set the pacing lab uses for word boundaries.
    var isWhitespace = false
    /// LF or CR LF: ends a line.
    var isNewline = false
    /// A backtick, which can start a code fence line.
    var isBacktick = false
    /// CJK ideograph, kana, CJK punctuation or an emoji: a line-break opportunity on either side.
    var isIdeographic = false
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
        isIdeographic = Self.isIdeographic(first)
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

    private static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x2FDF,  // CJK radicals, Kangxi radicals
            0x3000...0x303F,  // CJK symbols and punctuation
            0x3040...0x30FF,  // Hiragana, Katakana
            0x3100...0x312F, 0x31A0...0x31FF,  // Bopomofo, Katakana extensions
            0x3400...0x4DBF, 0x4E00...0x9FFF,  // CJK unified ideographs
            0xF900...0xFAFF,  // compatibility ideographs
            0xFF00...0xFF60, 0xFF61...0xFF9F,  // fullwidth forms, halfwidth kana
            0x1F1E6...0x1F1FF,  // regional indicators (flags)
            0x20000...0x3FFFF:  // ideographs in the supplementary planes
            return true
        default:
            // Pictographic emoji bases (arrows, dingbats, symbols and the emoji planes), which
            // also start ZWJ sequences and keycaps never reach here (their base is ASCII).
            return scalar.value >= 0x2190 && scalar.properties.isEmoji
        }
    }
}
