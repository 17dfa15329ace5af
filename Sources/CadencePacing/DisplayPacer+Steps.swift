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
        // A stall is a silence well beyond the stream's usual rhythm (unknown before two
        // chunks arrived).
        if let gap = arrivals.typicalGap,
            idle >= max(configuration.partialWordRelease.milliseconds, configuration.stallGapMultiple * gap)
        {
            return segmenter.releasableEnd
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

    /// Adaptive mode: a reveal head moves at `rate = λ + (backlog − λ·lag) / catchUpTime`,
    /// where λ is the recent arrival rate (with the base rate as prior) and the target lag
    /// follows the typical arrival gap; text older than `latencyBudget` pulls the head to it. The visible text snaps forward to the end of the unit
    /// the head is in. Catch-up is proportional to the excess backlog, with no dead band.
    mutating func adaptiveStep(at time: Double, elapsed: Double) -> UnitBoundary? {
        let limit = committable(at: time)
        let shown = Double(visible.scalarOffset)
        guard limit.scalarOffset > visible.scalarOffset else { return nil }

        let arrivalRate = arrivals.rate(at: time)
        let minimumLag = configuration.minimumLag.milliseconds
        let maximumLag = max(minimumLag, configuration.maximumLag.milliseconds)
        let lag = min(maximumLag, max(minimumLag, arrivals.typicalGap ?? minimumLag))
        let catchUp = max(1, configuration.catchUpTime.milliseconds, configuration.catchUpLagMultiple * lag)
        let backlog = max(0, Double(limit.scalarOffset) - head)
        let rate = max(0, arrivalRate + (backlog - arrivalRate * lag / 1000) / (catchUp / 1000))
        head = min(Double(limit.scalarOffset), head + rate * elapsed / 1000)
        if let budget = configuration.latencyBudget {
            // Whatever the rate law says, text that has waited its budget is shown now.
            head = max(head, arrivalDeadlines.due(at: time, budget: budget.milliseconds, head: head, limit: limit.scalarOffset))
        }

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
