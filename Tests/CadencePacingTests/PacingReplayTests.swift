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
            try FrameInvariants.check(trace: trace, hz: hz, mode: mode)
        }
    }

    @Test(
        "held-out CJK, emoji and markdown-code traces: the same invariants at several seeds",
        .enabled(if: PacingLab.isAvailable), arguments: [1, 7, 23, 99])
    func heldOutTrace(seed: Int) throws {
        for trace in try PacingLab.heldOutTraces(seed: seed, names: ["cjk-emoji", "markdown-code", "bursty"]) {
            for hz in [60.0, 120.0] {
                try FrameInvariants.check(trace: trace, hz: hz, mode: .adaptive)
            }
        }
    }

    @Test("synthetic trace: the same invariants in every mode", arguments: DisplayPacer.Mode.allCases)
    func syntheticTrace(mode: DisplayPacer.Mode) throws {
        try FrameInvariants.check(trace: Self.synthetic, hz: 60, mode: mode)
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
        let fenced = FrameInvariants.fencedScalars(trace.text)
        var midLine = 0
        var previous = 0
        for frame in frames where frame.visibleScalarCount != previous {
            let visible = frame.visibleScalarCount
            previous = visible
            guard visible < scalars.count, fenced[visible], scalars[visible - 1] != "\n" else { continue }
            midLine += 1
            #expect(
                FrameInvariants.isSpace(scalars[visible - 1]) && !FrameInvariants.isSpace(scalars[visible]),
                "mid-token cut at \(visible)")
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
        // Epoch milliseconds by mistake: the replay would run frame by frame for ages.
        let epoch = #"{"name":"x","arrivals":[[1764100000000,"ab"]],"end_ms":1764100000500}"#
        do {
            _ = try PacingTrace.decode(Array(epoch.utf8))
            Issue.record("a trace of decades was accepted")
        } catch {
            #expect(error.code == .invalidTrace)
            #expect(error.message.contains("more than an hour"), "\(error.message)")
        }
    }

    @Test(
        "a trace that does not decode says what and where in the trace's terms",
        arguments: [
            (#"{"name":"x"}"#, #"invalid trace t.json: "arrivals" is missing"#),
            (
                #"{"name":"x","arrivals":[[0,"a"],[5,{}]],"end_ms":9}"#,
                "invalid trace t.json: arrivals[1]: the chunk must be a string"
            ),
            (
                #"{"name":"x","arrivals":[[0]],"end_ms":9}"#,
                #"invalid trace t.json: arrivals[0]: the chunk is missing (an arrival is [t_ms, "chunk"])"#
            ),
            (
                #"{"name":"x","arrivals":[[null,"a"]],"end_ms":9}"#,
                "invalid trace t.json: arrivals[0]: the time must be a number (milliseconds), not null"
            ),
            (#"{"name":"x","arrivals":[[0,"a"]],"end_ms":9"#, "invalid trace t.json: it is not valid JSON ("),
        ])
    func undecodableTrace(json: String, message: String) {
        do {
            _ = try PacingTrace.decode(Array(json.utf8), source: "t.json")
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.code == .invalidTrace)
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}
