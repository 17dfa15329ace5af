import CadenceCore
import Testing

/// `AsyncThrowingStream.producing` and `AsyncStream.producing`: the one bridge from a task that makes
/// elements to a stream.
@Suite("A stream produced by a task")
struct ProducingStreamTests {
    struct Failure: Error, Equatable {}

    @Test("the elements arrive in order, and the stream ends with the body's error")
    func elementsThenError() async throws {
        let stream = AsyncThrowingStream<Int, any Error>.producing { emit in
            for number in 1...3 { _ = emit(number) }
            throw Failure()
        }
        var received: [Int] = []
        await #expect(throws: Failure.self) {
            for try await number in stream { received.append(number) }
        }
        #expect(received == [1, 2, 3])
    }

    @Test("a consumer that goes away cancels the body, whose emit then refuses")
    func consumerLeaving() async throws {
        let (outcome, report) = AsyncStream<(cancelled: Bool, refused: Bool)>.makeStream()
        let (started, begin) = AsyncStream<Void>.makeStream()
        let stream = AsyncThrowingStream<Int, any Error>.producing { emit in
            begin.yield()
            // Waits for the cancellation that the consumer's going away brings.
            let (never, held) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            held.finish()
            report.yield((Task.isCancelled, !emit(2)))
            report.finish()
        }
        let consumer = Task {
            for try await _ in stream {}
        }
        for await _ in started { break }
        consumer.cancel()
        var results = outcome.makeAsyncIterator()
        let result = await results.next()
        #expect(result?.cancelled == true)
        #expect(result?.refused == true)
    }

    @Test("the non-throwing twin: elements in order, then the end; a consumer that goes away cancels the body")
    func nonThrowing() async throws {
        let ordered = AsyncStream<Int>.producing { emit in
            for number in 1...3 { _ = emit(number) }
        }
        var received: [Int] = []
        for await number in ordered { received.append(number) }
        #expect(received == [1, 2, 3])

        let (outcome, report) = AsyncStream<Bool>.makeStream()
        let (started, begin) = AsyncStream<Void>.makeStream()
        let stream = AsyncStream<Int>.producing { emit in
            begin.yield()
            let (never, held) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            held.finish()
            report.yield(Task.isCancelled && !emit(2))
            report.finish()
        }
        let consumer = Task { for await _ in stream {} }
        for await _ in started { break }
        consumer.cancel()
        var results = outcome.makeAsyncIterator()
        #expect(await results.next() == true)
    }
}
