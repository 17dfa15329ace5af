import CadencePacing
import Foundation
import Testing

private let publicTraces = ["steady", "bursty", "cached-5000", "fast-1200cps"]

@Suite("Replay")
struct PacingReplayTests {
    /// A small trace with everything the rules care about: prose, a fence, CJK, emoji
    /// split across chunks, a citation, a stall, and an end after a burst.
    static let synthetic = PacingTrace(
        name: "synthetic",
        arrivals: [
            .init(milliseconds: 50, chunk: "Streamed answers [1][2] arr"),
            .init(milliseconds: 70, chunk: "ive in bursts.\n```swift\nlet a = 1\nlet b"),
            .init(milliseconds: 400, chunk: " = 2\n```\n流式输出👨\u{200D}"),
            .init(milliseconds: 1900, chunk: "👩 café\u{301} mid-wo"),
            .init(milliseconds: 1950, chunk: "rd end."),
        ],
        endMilliseconds: 1960
    )

    @Test(
        "public traces: visible never decreases, never splits a word, line or cluster, ends complete",
        .enabled(if: PacingLab.isAvailable), arguments: publicTraces, [DisplayPacer.Mode.adaptive, .word])
    func publicTrace(name: String, mode: DisplayPacer.Mode) throws {
        let trace = try PacingLab.publicTrace(name)
        for hz in [60.0, 120.0] {
            try checkInvariants(trace: trace, hz: hz, mode: mode)
        }
    }

    @Test(
        "held-out CJK, emoji and markdown-code traces: the same invariants at several seeds",
        .enabled(if: PacingLab.isAvailable), arguments: [1, 7, 23, 99])
    func heldOutTrace(seed: Int) throws {
        for trace in try PacingLab.heldOutTraces(seed: seed, names: ["cjk-emoji", "markdown-code", "bursty"]) {
            for hz in [60.0, 120.0] {
                try checkInvariants(trace: trace, hz: hz, mode: .adaptive)
            }
        }
    }

    @Test("synthetic trace: the same invariants in every mode", arguments: DisplayPacer.Mode.allCases)
    func syntheticTrace(mode: DisplayPacer.Mode) throws {
        try checkInvariants(trace: Self.synthetic, hz: 60, mode: mode)
    }

    @Test(
        "opt-in code tokens on the steady trace: code cut only between tokens, and it does cut lines",
        .enabled(if: PacingLab.isAvailable))
    func codeTokenReleaseOnSteady() throws {
        let trace = try PacingLab.publicTrace("steady")
        var configuration = DisplayPacer.Configuration()
        configuration.codeTokenRelease = .milliseconds(30)
        let frames = PacingReplay.run(trace: trace, hz: 60, configuration: configuration)
        let scalars = Array(trace.text.unicodeScalars)
        let fenced = fencedScalars(trace.text)
        var midLine = 0
        var previous = 0
        for frame in frames where frame.visibleScalarCount != previous {
            let visible = frame.visibleScalarCount
            previous = visible
            guard visible < scalars.count, fenced[visible], scalars[visible - 1] != "\n" else { continue }
            midLine += 1
            #expect(isSpace(scalars[visible - 1]) && !isSpace(scalars[visible]), "mid-token cut at \(visible)")
        }
        #expect(midLine > 0)
        #expect(frames.last?.visibleScalarCount == scalars.count)
    }

    @Test("frames follow the lab's clock and the JSON is the lab's format")
    func timeline() throws {
        let frames = PacingReplay.run(trace: Self.synthetic, hz: 60)
        for (index, frame) in frames.enumerated() {
            #expect(frame.milliseconds == Double(index) * (1000.0 / 60))
        }
        let json = PacingReplay.timelineJSON(Array(frames.prefix(2)), hz: 60)
        #expect(json == "{\"hz\":60,\"frames\":[[0,0],[16.666666666666668,0]]}")
    }

    @Test("invalid traces are rejected with a message")
    func invalidTrace() {
        #expect(throws: PacingError.self) { try PacingTrace.decode(Array("{\"name\":\"x\"}".utf8)) }
        let backwards = #"{"name":"x","arrivals":[[10,"a"],[5,"b"]],"end_ms":20}"#
        do {
            _ = try PacingTrace.decode(Array(backwards.utf8))
            Issue.record("a trace whose times go backwards was accepted")
        } catch {
            #expect(error.code == .invalidTrace)
            #expect(error.message.contains("earlier"))
        }
    }

    private func checkInvariants(trace: PacingTrace, hz: Double, mode: DisplayPacer.Mode) throws {
        let frames = PacingReplay.run(trace: trace, hz: hz, mode: mode)
        let text = trace.text
        let scalars = Array(text.unicodeScalars)
        let fenced = fencedScalars(text)
        let clusters = text.characterBoundaries
        let label = "\(trace.name) at \(hz) Hz, \(mode)"
        #expect(frames.last?.visibleScalarCount == scalars.count, "\(label): never complete")
        var previous = 0
        var changes = 0
        var received = 0
        var delivered = 0
        for frame in frames {
            let visible = frame.visibleScalarCount
            while delivered < trace.arrivals.count, trace.arrivals[delivered].milliseconds <= frame.milliseconds + 1e-6
            {
                received += trace.arrivals[delivered].chunk.unicodeScalars.count
                delivered += 1
            }
            #expect(
                visible <= received,
                "\(label): \(visible) scalars visible at \(frame.milliseconds) ms, \(received) arrived")
            #expect(visible >= previous, "\(label): visible decreased at \(frame.milliseconds) ms")
            if visible != previous, visible < scalars.count {
                changes += 1
                #expect(clusters.contains(visible), "\(label): grapheme cluster split at \(visible)")
                if mode == .adaptive || mode == .word {
                    if fenced[visible] {
                        #expect(scalars[visible - 1] == "\n", "\(label): code line split at \(visible)")
                    } else if !text.isCJKOrEmoji(around: visible, scalars) {
                        // The documented exceptions, both showing all of what arrived: a word
                        // ending in punctuation after `finishedWordRelease` of network silence, and
                        // any held unit after `heldUnitRelease`.
                        let joined = !isSpace(scalars[visible - 1]) && !isSpace(scalars[visible])
                        let lastArrival = delivered > 0 ? trace.arrivals[delivered - 1].milliseconds : 0
                        let idle = frame.milliseconds - lastArrival
                        let standard = DisplayPacer.Configuration.standard
                        let released =
                            visible == received
                            && (idle >= (standard.heldUnitRelease?.seconds ?? .infinity) * 1000
                                || (idle >= standard.finishedWordRelease.seconds * 1000
                                    && ",.!?;:)]}\"'".unicodeScalars.contains(scalars[visible - 1])))
                        #expect(!joined || released, "\(label): word split at \(visible)")
                    }
                }
            }
            previous = visible
        }
        let first = try #require(trace.arrivals.first?.milliseconds)
        let span = max(1000, try #require(frames.last?.milliseconds) - first + 1000 / hz)
        #expect(Double(changes) / span * 1000 <= 60 + 1e-9, "\(label): more than 60 updates/s")
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool { " \t\r\n".unicodeScalars.contains(scalar) }

    /// Per scalar offset: inside a ``` fence (the lab's rule: a line starting with three
    /// backticks opens or closes one; fence lines belong to it).
    private func fencedScalars(_ text: String) -> [Bool] {
        var result: [Bool] = []
        var open = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isFence = line.hasPrefix("```")
            let inside = open || isFence
            result += Array(repeating: inside, count: line.unicodeScalars.count + 1)
            if isFence { open.toggle() }
        }
        if open { result += [true] }
        return result
    }
}

extension String {
    /// Whether a cut at `offset` touches CJK, Hangul, emoji (a keycap such as `1️⃣` included) or a
    /// script written without spaces (Thai, Lao, Tibetan, Myanmar, Khmer), where the lab's
    /// whitespace rule does not define words (it judges such text by grapheme clusters only).
    func isCJKOrEmoji(around offset: Int, _ scalars: [Unicode.Scalar]) -> Bool {
        let neighbours = [scalars[offset - 1], scalars[offset]]
        let keycapAfter = scalars[offset...].prefix(3).contains { $0.value == 0x20E3 }
        return keycapAfter || scalars[offset - 1].value == 0x20E3
            || neighbours.contains {
                $0.value >= 0x2190 || (0x0E00...0x109F).contains($0.value) || (0x1780...0x17FF).contains($0.value)
            }
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
