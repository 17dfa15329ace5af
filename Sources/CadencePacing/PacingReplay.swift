/// One display frame of a replay, made by ``PacingReplay``: its time and the visible length in
/// Unicode scalars.
public struct PacingFrame: Sendable, Hashable {
    public let milliseconds: Double
    public let visibleScalarCount: Int
}

/// Replays a trace through a ``DisplayPacer`` on a virtual clock, frame by frame, exactly
/// as the pacing lab does: frame k is at `k × 1000 / hz` ms; before it, every chunk that
/// arrived by then is appended (stamped with its arrival time), then the end is signalled
/// once all chunks are in and the end time has passed.
///
/// ```swift
/// let trace = try PacingTrace.load(path: "steady.json")
/// let frames = PacingReplay.run(trace: trace, hz: 60, mode: .adaptive)
/// print(PacingReplay.timelineJSON(frames, hz: 60))   // {"hz":60,"frames":[[0,0],…]}
/// ```
public enum PacingReplay {
    /// Frames from t = 0 to the first frame showing the whole text (at most two minutes
    /// after the end, as in the lab).
    public static func run(
        trace: PacingTrace,
        hz: Double,
        mode: DisplayPacer.Mode = .adaptive,
        configuration: DisplayPacer.Configuration = .standard
    ) -> [PacingFrame] {
        precondition(hz > 0 && hz.isFinite, "hz must be positive")
        let total = trace.arrivals.reduce(0) { $0 + $1.chunk.unicodeScalars.count }
        let interval = 1000.0 / hz
        var pacer = DisplayPacer(mode: mode, configuration: configuration)
        var frames: [PacingFrame] = []
        var next = 0
        var frame = 0
        while true {
            let time = Double(frame) * interval
            while next < trace.arrivals.count, trace.arrivals[next].milliseconds <= time {
                let arrival = trace.arrivals[next]
                pacer.append(arrival.chunk, at: .milliseconds(arrival.milliseconds))
                next += 1
            }
            if next == trace.arrivals.count, trace.endMilliseconds <= time, !pacer.isFinished {
                pacer.finish()
            }
            let update = pacer.advance(to: .milliseconds(time))
            frames.append(PacingFrame(milliseconds: time, visibleScalarCount: update.visibleScalarCount))
            if update.visibleScalarCount == total { break }
            if time > trace.endMilliseconds + 120_000 { break }
            frame += 1
        }
        return frames
    }

    /// The lab's frame-timeline JSON: `{"hz":60,"frames":[[t_ms,visible],…]}`.
    public static func timelineJSON(_ frames: [PacingFrame], hz: Double) -> String {
        var json = "{\"hz\":\(number(hz)),\"frames\":["
        json.reserveCapacity(frames.count * 24)
        for (index, frame) in frames.enumerated() {
            if index > 0 { json += "," }
            json += "[\(number(frame.milliseconds)),\(frame.visibleScalarCount)]"
        }
        json += "]}"
        return json
    }

    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
