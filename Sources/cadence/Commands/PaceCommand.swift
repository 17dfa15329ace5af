import ArgumentParser
import CadencePacing

/// `cadence pace`: replays a recorded arrival trace through the display pacer on a virtual
/// clock and prints the frame timeline the pacing lab scores.
///
/// ```
/// cadence pace --trace ../shared/pacing/traces-public/bursty.json --hz 120 > frames.json
/// python3 ../shared/pacing/pacing_lab.py targets --trace …/bursty.json --frames frames.json --hz 120
/// ```
struct PaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pace",
        abstract: "Replay an arrival trace through the display pacer and print the frame timeline as JSON.",
        discussion: """
            The trace and timeline formats are those of the pacing lab (METRICS.md): the trace is \
            {"name", "arrivals": [[t_ms, "chunk"], ...], "end_ms"}; the output is \
            {"hz": HZ, "frames": [[t_ms, visible], ...]}, one entry per frame until the whole text is \
            visible, with visible counted in Unicode scalars.
            """
    )

    /// How text is revealed: `--mode` here, `--pace` in `demo` and `chat`.
    enum PaceMode: String, ExpressibleByArgument, CaseIterable {
        case adaptive, char, word, instant

        var pacerMode: DisplayPacer.Mode {
            switch self {
            case .adaptive: .adaptive
            case .char: .character
            case .word: .word
            case .instant: .instant
            }
        }
    }

    @Option(help: "Arrival trace JSON file, or - for standard input.")
    var trace: String

    @Option(help: "Display refresh rate in frames per second.")
    var hz: Double = 60

    @Option(help: "Reveal mode: \(PaceMode.allCases.map(\.rawValue).joined(separator: ", ")).")
    var mode: PaceMode = .adaptive

    @Option(
        help: """
            Opt-in: show a slow code line token by token once the screen has been unchanged this many ms, \
            e.g. 30 (default: whole lines; the lab then reports partLine% > 0).
            """
    )
    var codeTokenRelease: Double?

    func validate() throws {
        guard hz.isFinite, hz > 0, hz <= 1000 else {
            throw ValidationError("--hz must be a refresh rate between 0 and 1000, got \(hz)")
        }
        if let codeTokenRelease, !(codeTokenRelease.isFinite && codeTokenRelease >= 0) {
            throw ValidationError("--code-token-release must be a non-negative number of ms, got \(codeTokenRelease)")
        }
    }

    func run() throws {
        // InputFile's and PacingError's messages print as "Error: <message>", with exit status 1.
        var json: [UInt8] = []
        try InputFile(trace).forEachChunk { bytes in
            json.append(contentsOf: bytes)
            guard json.count <= Self.maxTraceBytes else { throw TraceTooLarge(path: trace) }
            return true
        }
        let recorded = try PacingTrace.decode(json, source: InputFile.name(of: trace))
        var configuration = DisplayPacer.Configuration.standard
        configuration.codeTokenRelease = codeTokenRelease.map { .milliseconds($0) }
        let frames = PacingReplay.run(trace: recorded, hz: hz, mode: mode.pacerMode, configuration: configuration)
        print(PacingReplay.timelineJSON(frames, hz: hz))
    }

    /// The largest trace read: the pacing lab's are 10–200 KB, and an hour of tokens (the longest
    /// replayed) a few MB.
    static let maxTraceBytes = 64 << 20

    struct TraceTooLarge: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "trace \(InputFile.name(of: path)) is over \(PaceCommand.maxTraceBytes >> 20) MB; a trace is at most an hour of arrivals"
        }
    }
}
