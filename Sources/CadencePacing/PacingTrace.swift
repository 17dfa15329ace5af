import Foundation

/// A recorded network arrival trace, in the pacing lab's format (METRICS.md):
/// `{"name": …, "arrivals": [[t_ms, "chunk"], …], "end_ms": …}`.
///
/// ```swift
/// let trace = try PacingTrace.load(path: "traces-public/bursty.json")
/// print(trace.name, trace.text.unicodeScalars.count, trace.endMilliseconds)
/// ```
public struct PacingTrace: Sendable, Decodable {
    /// One network chunk and when it arrived.
    public struct Arrival: Sendable, Decodable, Hashable {
        /// Arrival time in milliseconds from the start of the request.
        public var milliseconds: Double
        public var chunk: String

        public init(milliseconds: Double, chunk: String) {
            self.milliseconds = milliseconds
            self.chunk = chunk
        }

        public init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            // Counted first, so that a short or long pair says so instead of "container at end".
            let problem: String? =
                switch pair.count {
                case 0?: "the time and the chunk are missing"
                case 1?: "the chunk is missing"
                case 2?, nil: nil
                case let count?: "not \(count) values"
                }
            if let problem { throw DecodingError.dataCorruptedError(in: pair, debugDescription: Self.shape(problem)) }
            milliseconds = try pair.decode(Double.self)
            chunk = try pair.decode(String.self)
        }

        private static func shape(_ problem: String) -> String {
            problem.hasPrefix("not")
                ? "an arrival is [t_ms, \"chunk\"], \(problem)" : "\(problem) (an arrival is [t_ms, \"chunk\"])"
        }
    }

    public var name: String
    public var description: String
    /// Chunks in arrival order (times never decrease).
    public var arrivals: [Arrival]
    /// When the stream ends, in milliseconds (at or after the last arrival).
    public var endMilliseconds: Double

    public init(name: String, description: String = "", arrivals: [Arrival], endMilliseconds: Double) {
        self.name = name
        self.description = description
        self.arrivals = arrivals
        self.endMilliseconds = endMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case name, description, arrivals
        case endMilliseconds = "end_ms"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        arrivals = try container.decode([Arrival].self, forKey: .arrivals)
        endMilliseconds = try container.decode(Double.self, forKey: .endMilliseconds)
    }

    /// The whole text: the chunks concatenated.
    public var text: String { arrivals.map(\.chunk).joined() }

    /// Reads and validates a trace file.
    public static func load(path: String) throws(PacingError) -> PacingTrace {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw PacingError(.unreadableFile, "cannot read trace \(path): \(error.localizedDescription)")
        }
        return try decode(data, source: path)
    }

    /// Decodes and validates trace JSON.
    public static func decode(
        _ json: some Sequence<UInt8>, source: String = "<trace>"
    ) throws(PacingError) -> PacingTrace {
        let trace: PacingTrace
        let data = Data(json)
        do {
            trace = try JSONDecoder().decode(PacingTrace.self, from: data)
        } catch let error as DecodingError {
            throw PacingError(.invalidTrace, "invalid trace \(source): \(Self.describe(error, in: data))")
        } catch {
            throw PacingError(.invalidTrace, "invalid trace \(source): \(error.localizedDescription)")
        }
        try trace.validate(source: source)
        return trace
    }

    /// The longest trace a replay takes: an hour, in milliseconds.
    public static let longestMilliseconds: Double = 3_600_000

    private func validate(source: String) throws(PacingError) {
        var problems: [String] = []
        if arrivals.isEmpty { problems.append("\"arrivals\" is empty") }
        var previous = -Double.infinity
        for (index, arrival) in arrivals.enumerated() {
            if !arrival.milliseconds.isFinite || arrival.milliseconds < 0 {
                problems.append("arrivals[\(index)]: time \(arrival.milliseconds) is not a finite, non-negative number")
            } else if arrival.milliseconds < previous {
                problems.append("arrivals[\(index)]: time \(arrival.milliseconds) is earlier than \(previous)")
            }
            previous = max(previous, arrival.milliseconds)
        }
        if !endMilliseconds.isFinite || endMilliseconds < previous {
            problems.append("\"end_ms\" \(endMilliseconds) is not at or after the last arrival")
        } else if endMilliseconds > Self.longestMilliseconds {
            // A replay runs frame by frame: a trace of days (times in epoch milliseconds by
            // mistake) would run for hours and print millions of frames.
            problems.append(
                "\"end_ms\" \(endMilliseconds) is more than an hour: times are milliseconds from the stream's start")
        }
        if arrivals.allSatisfy(\.chunk.isEmpty) { problems.append("the trace carries no text") }
        guard problems.isEmpty else {
            throw PacingError(.invalidTrace, "invalid trace \(source): " + problems.prefix(5).joined(separator: "; "))
        }
    }
}
