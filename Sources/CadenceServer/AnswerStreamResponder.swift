import CadenceCore
import CadenceEngine
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// Streams one answer as `text/event-stream`: numbers the engine's events, writes each as soon
/// as it exists, and sends `: keepalive` while the stream is quiet.
struct AnswerStreamResponder: Sendable {
    let engine: any AnswerEngine
    let clock: any Clock<Duration>
    let keepAliveInterval: Duration

    static let headers: HTTPFields = [
        .contentType: "text/event-stream; charset=utf-8",
        .cacheControl: "no-cache",
        HTTPField.Name("X-Accel-Buffering")!: "no",
    ]

    func response(for request: AnswerRequest) -> Response {
        Response(status: .ok, headers: Self.headers, body: ResponseBody { writer in
            try await stream(request, to: &writer)
        })
    }

    private func stream(_ request: AnswerRequest, to writer: inout any ResponseBodyWriter) async throws {
        try await stream(request, to: &writer, clock: clock)
    }

    private func stream<C: Clock<Duration>>(
        _ request: AnswerRequest, to writer: inout any ResponseBodyWriter, clock: C
    ) async throws {
        let (frames, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let lastWrite = NIOLockedValueBox(clock.now)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await produceFrames(for: request, into: continuation)
                continuation.finish()
            }
            group.addTask {
                try await sendKeepAlives(into: continuation, lastWrite: lastWrite, clock: clock)
            }
            for await frame in frames {
                try await writer.write(ByteBuffer(string: frame))
                lastWrite.withLockedValue { $0 = clock.now }
            }
            group.cancelAll()
            try await writer.finish(nil)
        }
    }

    /// Numbers the engine's events from 1 and frames them. An engine failure becomes an `error` event.
    private func produceFrames(for request: AnswerRequest, into continuation: AsyncStream<String>.Continuation) async {
        var sequence = 0
        var sentTokens = false
        func send(_ kind: ResearchEvent.Kind) {
            sequence += 1
            continuation.yield(ResearchEventEncoder.frame(ResearchEvent(sequence: sequence, kind: kind)))
        }
        do {
            for try await kind in engine.answer(request) {
                if case .token = kind { sentTokens = true }
                if case .complete = kind, sentTokens {
                    continuation.yield(ResearchEventEncoder.comment("flush-tokens"))
                }
                send(kind)
            }
        } catch is CancellationError {
            return
        } catch {
            send(.error(code: "engine_failed", message: "the answer engine failed: \(error)"))
        }
    }

    /// Sends `: keepalive` whenever nothing has been written for `keepAliveInterval`.
    private func sendKeepAlives<C: Clock<Duration>>(
        into continuation: AsyncStream<String>.Continuation, lastWrite: NIOLockedValueBox<C.Instant>, clock: C
    ) async throws {
        var deadline = clock.now.advanced(by: keepAliveInterval)
        while !Task.isCancelled {
            try await clock.sleep(until: deadline, tolerance: nil)
            let quietUntil = lastWrite.withLockedValue { $0 }.advanced(by: keepAliveInterval)
            if quietUntil <= clock.now {
                continuation.yield(ResearchEventEncoder.comment("keepalive"))
                deadline = clock.now.advanced(by: keepAliveInterval)
            } else {
                deadline = quietUntil
            }
        }
    }
}
