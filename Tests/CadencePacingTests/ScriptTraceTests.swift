import CadenceCore
import CadencePacing
import Foundation
import Testing

/// Streams in many scripts, cut into network chunks anywhere (between Unicode scalars, so inside
/// grapheme clusters and words) and delivered by a bursty proxy, replayed frame by frame: at
/// every frame the visible text ends between grapheme clusters of the final text, never ahead
/// of what arrived, never going back, and between whole words where a script spaces its words.
@Suite("Scripts on bursty streams")
struct ScriptTraceTests {
    /// Text the pacing lab has no trace for: Thai, Lao and Khmer (no spaces, no ideographs,
    /// combining vowels and tone marks), mixed with Hangul, Devanagari, Arabic, decomposed Latin
    /// and emoji sequences.
    static let pieces = [
        "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ", "ผู้ใช้เห็นข้อความทีละตัว", "ພາສາລາວຂຽນຕິດກັນ", "ភាសាខ្មែរសរសេរជាប់គ្នា",
        " 한국어는 띄어쓰기를 사용합니다 ", " हिन्दी में शब्दों के बीच जगह होती है ", " مرحبا بالعالم ", " cafe\u{301} na\u{EF}ve ",
        "👩🏽\u{200D}💻", "🧑🏿\u{200D}🚀", "👨\u{200D}👩\u{200D}👧\u{200D}👦", "🇹🇭", "🇰🇷", "👍🏾", "🏴\u{200D}☠️", "か\u{3099}っこう",
        "流式输出。", "\n\n",
    ]

    /// A deterministic stream: `seed` picks the text and cuts it into 1–4 scalar tokens delivered
    /// after gaps of 20–150 ms (70 %), 150–500 ms (25 %) or 1–1.5 s (5 %), like the lab's proxy.
    static func trace(seed: UInt64) -> PacingTrace {
        var random = SplitMix64(seed: seed)
        var text = ""
        while text.unicodeScalars.count < 1200 {
            text += pieces[Int(random.next() % UInt64(pieces.count))]
        }
        let scalars = Array(text.unicodeScalars)
        var arrivals: [PacingTrace.Arrival] = []
        var time = 50.0
        var start = 0
        while start < scalars.count {
            var end = start
            let burst = 1 + Int(random.next() % 12)  // tokens the proxy flushes at once
            for _ in 0..<burst where end < scalars.count {
                end = min(scalars.count, end + 1 + Int(random.next() % 4))
            }
            arrivals.append(.init(milliseconds: time, chunk: String(String.UnicodeScalarView(scalars[start..<end]))))
            start = end
            let draw = Double(random.next() % 1000) / 1000
            time +=
                draw < 0.7
                ? 20 + 130 * draw / 0.7
                : draw < 0.95 ? 150 + 350 * (draw - 0.7) / 0.25 : 1000 + 500 * (draw - 0.95) / 0.05
        }
        return PacingTrace(name: "scripts-seed\(seed)", arrivals: arrivals, endMilliseconds: time)
    }

    @Test(
        "Thai, Lao, Khmer, Hangul, Devanagari, Arabic, accents and emoji: integrity at every frame",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func mixedScripts(seed: UInt64) throws {
        let trace = Self.trace(seed: seed)
        for hz in [60.0, 120.0] {
            try FrameInvariants.check(trace: trace, hz: hz)
        }
    }

    @Test(
        "held-out cjk-emoji traces: integrity at every frame, also where the network cuts か|゙ or 🧑🏿|‍🚀 for long",
        .enabled(if: PacingLab.isAvailable), arguments: [3, 7, 12, 28, 30, 36])
    func heldOutCJK(seed: Int) throws {
        let trace = try #require(try PacingLab.heldOutTraces(seed: seed, names: ["cjk-emoji"]).first)
        for hz in [60.0, 120.0] {
            try FrameInvariants.check(trace: trace, hz: hz)
        }
    }
}
