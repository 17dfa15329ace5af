import CadencePacing
import Testing

/// What every replayed frame must keep, whatever the trace.
enum FrameInvariants {
    /// Replays `trace` at `hz` and checks every frame: the visible text never runs ahead of what
    /// arrived, never goes back, always ends between grapheme clusters, and, in the adaptive and
    /// word modes, between whole code lines inside fences and between whole words in scripts that
    /// space their words (bar the documented releases after network silence); the text ends
    /// complete, and at most 60 updates a second.
    static func check(trace: PacingTrace, hz: Double, mode: DisplayPacer.Mode = .adaptive) throws {
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
                let betweenClusters = clusters.contains(visible)
                #expect(betweenClusters, "\(label): grapheme cluster split at \(visible)")
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
                            && (idle >= (standard.heldUnitRelease?.inMilliseconds ?? .infinity)
                                || (idle >= standard.finishedWordRelease.inMilliseconds
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

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { " \t\r\n".unicodeScalars.contains(scalar) }

    /// Per scalar offset: inside a ``` fence (the lab's rule: a line starting with three
    /// backticks opens or closes one; fence lines belong to it).
    static func fencedScalars(_ text: String) -> [Bool] {
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
