extension AsyncThrowingStream where Failure == any Error, Element: Sendable {
    /// A stream whose elements `body` makes in a task of its own, handing each to the function it
    /// is given, which returns `false` once the consumer has gone (and which the work may hand on to
    /// tasks of its own). The stream ends when `body` returns, or with the error it throws; a
    /// consumer that goes away cancels the task.
    ///
    /// ```swift
    /// let events = AsyncThrowingStream<ResearchEvent.Kind, any Error>.producing { emit in
    ///     try await engine.produce(request, emit: emit)
    /// }
    /// ```
    public static func producing(
        _ body: @escaping @Sendable (_ emit: @escaping @Sendable (Element) -> Bool) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task {
            do {
                try await body { element in
                    if case .terminated = continuation.yield(element) { return false }
                    return true
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

extension AsyncStream where Element: Sendable {
    /// ``AsyncThrowingStream/producing(_:)`` for work that cannot fail: a stream whose elements
    /// `body` makes in a task of its own, ending when `body` returns; a consumer that goes away
    /// cancels the task.
    ///
    /// ```swift
    /// let updates = AsyncStream<AnswerUpdate>.producing { emit in
    ///     for await update in source { guard emit(update) else { return } }
    /// }
    /// ```
    public static func producing(
        _ body: @escaping @Sendable (_ emit: @escaping @Sendable (Element) -> Bool) async -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let task = Task {
            await body { element in
                if case .terminated = continuation.yield(element) { return false }
                return true
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
