// The per-frame decisions of each mode. Each returns the boundary the visible text should
// reach this frame (or nil); `advance(to:)` applies it subject to the update-rate limit.

extension DisplayPacer {
    /// The furthest boundary that may be shown now: the segmenter's settled text, or the
    /// received text (bar a visibly unfinished last cluster) once network silence releases
    /// a held unit.
    func committable(at time: Double) -> UnitBoundary {
        let settled = segmenter.committableEnd
        guard settled.scalarOffset < segmenter.receivedScalars else { return settled }
        let idle = arrivals.idle(at: time)
        if let release = configuration.heldUnitRelease, idle >= release.milliseconds {
            return segmenter.releasableEnd
        }
        guard segmenter.granularity != .graphemes else { return settled }
        if segmenter.tailIsCode {
            // Opt-in: a code line that keeps the screen still too long shows token by token.
            if let hold = configuration.codeTokenRelease, let token = segmenter.codeTokenEnd,
                time - (lastChange ?? time) >= hold.milliseconds
            {
                return token
            }
            return settled
        }
        if idle >= configuration.finishedWordRelease.milliseconds,
            let last = segmenter.text.last, CharacterTraits(last).endsFinishedWord
        {
            return segmenter.releasableEnd
        }
        return settled
    }

    /// The next boundary after `offset`, but no further than `limit`.
    func nextBoundary(after offset: Double, strictly: Bool, limit: UnitBoundary) -> UnitBoundary {
        guard let boundary = segmenter.firstBoundary(from: offset, strictly: strictly),
            boundary.scalarOffset <= limit.scalarOffset
        else { return limit }
        return boundary
    }

    /// Adaptive mode: every chunk is due on screen ``targetLag`` after it arrived, a lag that
    /// follows the stream's usual gap between chunks. A reveal head moves at the slowest steady rate that meets every due time
    /// (``ArrivalDeadlines/spreadHead(since:to:lag:head:limit:)``), so a burst is spread over the
    /// lag instead of shown at once, and the buffer lasts as long as the lag into the gap after
    /// it. The visible text snaps forward to the end of the unit the head is in.
    mutating func adaptiveStep(at time: Double, elapsed: Double) -> UnitBoundary? {
        let limit = committable(at: time)
        let shown = Double(visible.scalarOffset)
        guard limit.scalarOffset > visible.scalarOffset else { return nil }

        head = arrivalDeadlines.spreadHead(
            since: time - elapsed, to: time, lag: targetLag, head: head, limit: limit.scalarOffset)

        // The first unit appears as soon as it is complete.
        if visible.scalarOffset == 0 {
            return nextBoundary(after: max(head, 0), strictly: true, limit: limit)
        }
        if head > shown {
            return nextBoundary(after: head, strictly: false, limit: limit)
        }
        // Never leave a complete unit waiting longer than `maximumFreeze`.
        if let lastChange, time - lastChange + elapsed >= configuration.maximumFreeze.milliseconds {
            return nextBoundary(after: shown, strictly: true, limit: limit)
        }
        return nil
    }

    /// How long after its arrival each chunk is due on screen: the stream's usual gap between
    /// chunks (the mean gap plus `lagGapDeviations` mean deviations), at least `minimumLag` and at
    /// most `latencyBudget`. Before the second chunk nothing is known about the gaps, and the
    /// first chunk is spread over the budget (its first unit still appears at once).
    var targetLag: Double {
        let minimum = configuration.minimumLag.milliseconds
        let budget = configuration.latencyBudget?.milliseconds ?? .infinity
        let usual = arrivals.usualGap(deviations: configuration.lagGapDeviations) ?? budget
        return min(budget, max(minimum, usual.isFinite ? usual : minimum))
    }

    /// Typewriter and word modes: each unit appears when the previous unit's pause is over
    /// (seed timings), or as soon as it arrives if the schedule was waiting for text.
    mutating func scheduleStep(at time: Double) -> UnitBoundary? {
        let limit = committable(at: time)
        // A schedule that was waiting for text resumes now: the new unit shows at once.
        var cursor = scheduleCursor.map { isScheduleWaiting ? max($0, time) : $0 } ?? time
        while cursor <= time + 1e-9, scheduled.scalarOffset < limit.scalarOffset {
            scheduled = nextBoundary(after: Double(scheduled.scalarOffset), strictly: true, limit: limit)
            cursor += scheduled.pauseAfter
        }
        isScheduleWaiting = scheduled.scalarOffset >= limit.scalarOffset
        scheduleCursor = cursor
        return scheduled
    }

    /// After the stream ended: a stream that finished before anything was shown appears at
    /// once (no replay); otherwise the rest drains evenly and is complete by the deadline.
    mutating func drainStep(at time: Double, elapsed: Double) -> UnitBoundary? {
        let end = receivedEnd
        let shown = Double(visible.scalarOffset)
        guard end.scalarOffset > visible.scalarOffset else { return nil }
        if visible.scalarOffset == 0 { return end }
        let duration = configuration.endDrain.milliseconds
        let drain: (deadline: Double, rate: Double)
        if let existing = endDrain {
            drain = existing
        } else {
            if duration <= 0 || nextBoundary(after: shown, strictly: true, limit: end) == end { return end }
            head = max(head, shown)
            drain = (time + duration, (Double(end.scalarOffset) - head) / duration)
            endDrain = drain
        }
        if time >= drain.deadline - 1e-6 { return end }
        head = min(Double(end.scalarOffset), head + drain.rate * elapsed)
        guard head > shown else { return nil }
        return nextBoundary(after: head, strictly: false, limit: end)
    }
}
