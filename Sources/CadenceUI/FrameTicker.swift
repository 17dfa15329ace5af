/// Calls a frame function at a steady interval on an injected clock: the display-frame callback for
/// places that have none (the terminal, tests). On Apple platforms a `CADisplayLink` or
/// `TimelineView` plays this part.
///
/// Each frame gets the time since ``run(_:)`` started, the `now` that ``AnswerViewModel/frame(now:)``,
/// ``ScrollPinState/tick(now:)`` and ``ConnectionBannerState/tick(now:)`` take. A frame that runs
/// late does not cause a burst of catch-up frames: the schedule restarts from the late frame.
///
/// ```swift
/// let ticker = FrameTicker(clock: ContinuousClock())            // 16 ms frames
/// try await ticker.run { now in
///     if answer.frame(now: now) { redraw() }
///     return answer.needsFrames || answer.isStreaming           // false ends the loop
/// }
/// ```
public struct FrameTicker<C: Clock>: Sendable where C.Duration == Duration {
    public let clock: C
    /// The time between two frames.
    public let interval: Duration

    /// - Parameters:
    ///   - clock: the clock the frames are timed on.
    ///   - interval: the time between frames; must be positive.
    public init(clock: C, interval: Duration = .milliseconds(16)) {
        precondition(interval > .zero, "FrameTicker needs a positive interval")
        self.clock = clock
        self.interval = interval
    }

    /// Calls `frame` once per ``interval`` with the time since the start, until it returns `false`.
    /// Throws `CancellationError` when the task is cancelled.
    @MainActor
    public func run(_ frame: @MainActor (Duration) -> Bool) async throws {
        try await run(whenIdle: nil, wakeUps: nil, frame)
    }

    /// Like ``run(_:)``, but after a frame for which `isIdle()` is true, no frame runs until
    /// `wakeUps` yields (an input arrived, say): a screen on which nothing can change by itself costs
    /// no wake-ups. The time each frame gets still counts from the start.
    ///
    /// ```swift
    /// let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    /// // on each key: handle it, then wake.yield()
    /// try await ticker.run(wakingOn: wakeUps, whenIdle: { !chat.needsFrames && !chat.isStreaming }) { now in
    ///     chat.frame()
    ///     return true
    /// }
    /// ```
    @MainActor
    public func run(
        wakingOn wakeUps: AsyncStream<Void>, whenIdle isIdle: @escaping @MainActor () -> Bool,
        _ frame: @MainActor (Duration) -> Bool
    ) async throws {
        try await run(whenIdle: isIdle, wakeUps: wakeUps, frame)
    }

    @MainActor
    private func run(
        whenIdle isIdle: (@MainActor () -> Bool)?, wakeUps: AsyncStream<Void>?, _ frame: @MainActor (Duration) -> Bool
    ) async throws {
        var wakeUps = wakeUps?.makeAsyncIterator()
        let origin = clock.now
        var deadline = origin
        while true {
            deadline = deadline.advanced(by: interval)
            try await clock.sleep(until: deadline, tolerance: nil)
            let now = clock.now
            guard frame(origin.duration(to: now)) else { return }
            if deadline < now { deadline = now }
            if let isIdle, isIdle() {
                // The wake-ups end when the task is cancelled (or their stream finishes).
                if await wakeUps?.next() == nil { try Task.checkCancellation() }
                deadline = clock.now
            }
        }
    }
}
