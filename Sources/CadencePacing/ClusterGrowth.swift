/// Whether the last grapheme cluster of the text received so far may still grow when more
/// text arrives, which decides how long the pacer holds it.
///
/// A cluster is never shown until it can no longer grow, or the pacer would split it: `か`
/// shown and then U+3099 arriving makes `が`; `👩` shown and then a skin tone and `‍💻` arriving
/// make `👩🏽‍💻`. Built from `Unicode.Scalar.Properties` (emoji presentation, modifier bases) and, where
/// the standard library has no property, from Unicode's data files as code-point ranges.
enum ClusterGrowth: Equatable {
    /// Nothing extends it in practice (whitespace, a single ideograph, a Hangul syllable, kana
    /// that takes no voicing mark, a complete emoji): the cut after it is decided at once.
    case settled
    /// It may still grow, so it is held until the next scalar arrives (or `heldUnitRelease`):
    /// a combining mark may attach (kana that takes a voicing mark, Thai, Lao, Khmer … clusters,
    /// conjoining jamo, letters of spaced scripts), or a skin tone, a presentation selector or a
    /// ZWJ sequence may continue an emoji (`👩`, `🧑🏿`, `❤️`, `☠`). No wait short of the next
    /// scalar is safe: the held-out traces cut `か|゙` by 440 ms and `🧑🏿|‍🚀` by 1.5 s.
    case mayGrow
    /// Visibly incomplete: it ends with a zero-width joiner, is a single regional indicator
    /// (half a flag) or an open tag sequence. Never shown before it is complete, except by
    /// `Configuration.heldUnitRelease`, which shows the rest of the text without it.
    case unfinished

    init(_ character: Character) {
        switch character {
        case " ", "\t", "\n", "\r\n":
            self = .settled
            return
        default:
            break
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else {
            self = .settled
            return
        }
        if last.value == 0x200D {
            self = .unfinished
        } else if (0xE0020...0xE007E).contains(last.value) {
            self = .unfinished  // a tag sequence (🏴 + tags) ends with CANCEL TAG
        } else if last.value == 0xE007F || last.value == 0x20E3 {
            self = .settled  // a complete tag sequence, a keycap
        } else if Self.isRegionalIndicator(first) {
            self = scalars.count % 2 == 1 ? .unfinished : .settled
        } else {
            switch Script(first) {
            case .emoji:
                self = Self.emojiGrowth(scalars)
            case .ideograph:
                self = scalars.count == 1 ? .settled : .mayGrow  // a variation selector may follow
            case .syllabary:
                self = Self.syllableGrowth(scalars)
            case .unspaced, .spaced:
                self = .mayGrow
            }
        }
    }

    /// An emoji ends a cluster unless a skin tone (after a modifier base), a presentation
    /// selector (after a text-default emoji such as ❤ or ☠) or a ZWJ (after the start of some RGI
    /// ZWJ sequence) may still follow its last element.
    private static func emojiGrowth(_ scalars: Character.UnicodeScalarView) -> ClusterGrowth {
        guard let last = scalars.last else { return .settled }
        // The elements joined by ZWJ, each by its base (skin tones and VS16 dropped).
        var elements: [UInt32] = []
        var lastBase: Unicode.Scalar?
        var inElement = false
        for scalar in scalars {
            if scalar.value == 0x200D {
                inElement = false
            } else if !inElement, !isModifierOrSelector(scalar) {
                elements.append(scalar.value)
                lastBase = scalar
                inElement = true
            }
        }
        guard let base = lastBase else { return .settled }
        let continuedByJoiner = zwjPrefixes.contains(elements)
        if isModifierOrSelector(last) {
            // 1️ waits for its keycap mark; otherwise only a ZWJ can follow a skin tone or VS16.
            if (0x30...0x39).contains(base.value) || base == "#" || base == "*" { return .mayGrow }
            return continuedByJoiner ? .mayGrow : .settled
        }
        let properties = base.properties
        if properties.isEmojiModifierBase || !properties.isEmojiPresentation || continuedByJoiner {
            return .mayGrow
        }
        return .settled
    }

    /// A precomposed Hangul syllable is settled; conjoining jamo combine with the jamo after them.
    /// Kana settles unless a voicing mark can still turn it into another kana (decomposed text,
    /// as in macOS file names, writes が as か and U+3099).
    private static func syllableGrowth(_ scalars: Character.UnicodeScalarView) -> ClusterGrowth {
        guard let first = scalars.first else { return .settled }
        let value = first.value
        let isJamo =
            (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
        if isJamo { return .mayGrow }
        if scalars.count == 1 && voiceable.contains(value) { return .mayGrow }
        return .settled
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func isModifierOrSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// Hiragana and katakana that a voicing mark (dakuten or handakuten) turns into another kana:
    /// う, か–こ, さ–そ, た–と, は–ほ, ゝ and their katakana, with ワ–ヲ and ヽ.
    private static let voiceable: Set<UInt32> = Set(
        "うかきくけこさしすせそたちつてとはひふへほゝウカキクケコサシスセソタチツテトハヒフヘホワヰヱヲヽ".unicodeScalars.map(\.value))

    /// Every RGI emoji ZWJ sequence's elements before a ZWJ (skin tones and VS16 dropped), from
    /// Unicode 15.1's `emoji-zwj-sequences.txt`: the element sequences a ZWJ may still continue.
    /// People, family members and roles, ❤ (❤️‍🔥), 🏳 and 🏴 (🏳️‍🌈, 🏴‍☠️), walkers and runners
    /// with ♀ or ♂ (facing-right sequences), and a few animals and objects. An emoji sequence
    /// that is not in this set is complete once its last element has its skin tone or VS16, or
    /// needs neither (`👍🏾`, `✍🏾`, `😀`, `👩‍💻`, `🤷🏻‍♀️`).
    private static let zwjPrefixes: Set<[UInt32]> = Set(
        [
            "\u{26D3} \u{26F9} \u{2764} \u{1F344} \u{1F34B} \u{1F3C3} \u{1F3C4} \u{1F3CA} \u{1F3CB} \u{1F3CC} ",
            "\u{1F3F3} \u{1F3F4} \u{1F408} \u{1F415} \u{1F426} \u{1F43B} \u{1F441} \u{1F468} \u{1F469} ",
            "\u{1F46E} \u{1F46F} \u{1F470} \u{1F471} \u{1F473} \u{1F477} \u{1F481} \u{1F482} \u{1F486} ",
            "\u{1F487} \u{1F575} \u{1F62E} \u{1F635} \u{1F636} \u{1F642} \u{1F645} \u{1F646} \u{1F647} ",
            "\u{1F64B} \u{1F64D} \u{1F64E} \u{1F6A3} \u{1F6B4} \u{1F6B5} \u{1F6B6} \u{1F926} \u{1F935} ",
            "\u{1F937} \u{1F938} \u{1F939} \u{1F93C} \u{1F93D} \u{1F93E} \u{1F9B8} \u{1F9B9} \u{1F9CD} ",
            "\u{1F9CE} \u{1F9CF} \u{1F9D1} \u{1F9D4} \u{1F9D6} \u{1F9D7} \u{1F9D8} \u{1F9D9} \u{1F9DA} ",
            "\u{1F9DB} \u{1F9DC} \u{1F9DD} \u{1F9DE} \u{1F9DF} \u{1FAF1} \u{1F3C3}\u{2640} \u{1F3C3}\u{2642} ",
            "\u{1F468}\u{2764} \u{1F468}\u{1F466} \u{1F468}\u{1F467} \u{1F468}\u{1F468} \u{1F468}\u{1F469} ",
            "\u{1F468}\u{1F91D} \u{1F468}\u{1F9AF} \u{1F468}\u{1F9BC} \u{1F468}\u{1F9BD} \u{1F469}\u{2764} ",
            "\u{1F469}\u{1F466} \u{1F469}\u{1F467} \u{1F469}\u{1F469} \u{1F469}\u{1F91D} \u{1F469}\u{1F9AF} ",
            "\u{1F469}\u{1F9BC} \u{1F469}\u{1F9BD} \u{1F6B6}\u{2640} \u{1F6B6}\u{2642} \u{1F9CE}\u{2640} ",
            "\u{1F9CE}\u{2642} \u{1F9D1}\u{2764} \u{1F9D1}\u{1F91D} \u{1F9D1}\u{1F9AF} \u{1F9D1}\u{1F9BC} ",
            "\u{1F9D1}\u{1F9BD} \u{1F9D1}\u{1F9D1} \u{1F9D1}\u{1F9D2} \u{1F468}\u{2764}\u{1F48B} ",
            "\u{1F468}\u{1F468}\u{1F466} \u{1F468}\u{1F468}\u{1F467} \u{1F468}\u{1F469}\u{1F466} ",
            "\u{1F468}\u{1F469}\u{1F467} \u{1F469}\u{2764}\u{1F48B} \u{1F469}\u{1F469}\u{1F466} ",
            "\u{1F469}\u{1F469}\u{1F467} \u{1F9D1}\u{2764}\u{1F48B} \u{1F9D1}\u{1F9D1}\u{1F9D2} ",
        ]
        .joined(separator: " ").split(separator: " ").map { $0.unicodeScalars.map(\.value) }
    )
}
