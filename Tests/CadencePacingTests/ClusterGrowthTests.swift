import Testing

@testable import CadencePacing

/// When the last cluster received may still grow, and so must wait for the next scalar.
@Suite("Cluster growth")
struct ClusterGrowthTests {
    @Test(
        "complete clusters settle at once; clusters that may still grow wait; visibly unfinished ones never show",
        arguments: [
            // Settled: nothing in practice extends them.
            (" ", ClusterGrowth.settled), ("\n", .settled), ("流", .settled), ("한", .settled), ("の", .settled),
            ("\u{304B}\u{3099}", .settled),  // か + dakuten: が, decomposed
            ("👍🏾", .settled), ("✍🏾", .settled), ("😀", .settled), ("🚀", .settled), ("✨", .settled),
            ("👩🏽\u{200D}💻", .settled), ("🧑🏿\u{200D}🚀", .settled), ("❤️\u{200D}🔥", .settled),
            ("🏴\u{200D}☠️", .settled), ("🤷🏻\u{200D}♀️", .settled), ("🇯🇵", .settled), ("1️⃣", .settled),
            ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", .settled),
            // May grow: a combining mark, skin tone, VS16 or ZWJ may still follow.
            ("か", .mayGrow), ("テ", .mayGrow), ("ส", .mayGrow), ("e", .mayGrow), ("\r", .mayGrow),
            ("👩", .mayGrow), ("👍", .mayGrow), ("🧑🏿", .mayGrow), ("❤️", .mayGrow), ("🏳️", .mayGrow),
            ("☠", .mayGrow), ("🏴\u{200D}☠", .mayGrow), ("👨\u{200D}👩", .mayGrow), ("🏃\u{200D}♀️", .mayGrow),
            ("1️", .mayGrow), ("\u{1100}", .mayGrow),
            // Visibly unfinished.
            ("👨\u{200D}", .unfinished), ("🇯", .unfinished), ("🏴\u{E0067}\u{E0062}", .unfinished),
        ])
    func growth(text: String, expected: ClusterGrowth) throws {
        #expect(text.count == 1, "\(text) is one grapheme cluster")
        let character = try #require(text.first)
        #expect(ClusterGrowth(character) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}
