public import AsyncHTTPClient
public import CadenceCore
import NIOCore

/// Streams a chat answer from a model provider: as an answer's `AnswerUpdate`s
/// (``answer(_:options:reasoning:)``, what the command and the view models read), or as the
/// provider's normalized `ModelEvent`s (``stream(_:options:)``, every choice, tool calls and usage).
///
/// ```swift
/// let client = ModelClient(provider: ModelProvider(kind: .anthropic, model: "claude-sonnet-4-5",
///                                                  apiKey: ProcessInfo.processInfo.environment["ANTHROPIC_API_KEY"]))
/// for try await event in client.stream([ChatTurn(role: "user", content: "Hello")]) {
///     if case .text(let delta, 0) = event { print(delta, terminator: "") }
/// }
/// ```
///
/// An HTTP error status before the stream throws ``CadenceClientError`` with the provider's message,
/// `retryable` from the status and any `retry-after`. Errors inside a 200 stream arrive as
/// `ModelEvent/error(_:)` events; a stream cut before its terminator ends with `finish(.truncated)`.
public struct ModelClient: Sendable {
    public var provider: ModelProvider
    public var httpClient: HTTPClient
    public var connectTimeout: Duration
    public var limits: SSELimits

    public init(
        provider: ModelProvider, httpClient: HTTPClient = .cadence, connectTimeout: Duration = .seconds(60),
        limits: SSELimits = .default
    ) {
        self.provider = provider
        self.httpClient = httpClient
        self.connectTimeout = connectTimeout
        self.limits = limits
    }

    /// Sends the conversation (oldest turn first, the question last) and streams the answer as
    /// updates, ending with exactly one terminal update (see ``ModelAnswerStream``).
    ///
    /// - Parameters:
    ///   - turns: the conversation, oldest turn first, the question last.
    ///   - options: sampling and output options for the request.
    ///   - reasoning: called with the model's reasoning text (choice 0) as it streams, in order with
    ///     the text; reasoning is not part of the answer's text.
    public func answer(
        _ turns: [ChatTurn], options: ModelRequestOptions = ModelRequestOptions(),
        reasoning: (@Sendable (String) -> Void)? = nil
    ) -> ModelAnswerStream {
        ModelAnswerStream(events: stream(turns, options: options), reasoning: reasoning)
    }

    /// Sends the conversation (oldest turn first, the question last) and streams the provider's
    /// normalized events.
    public func stream(_ turns: [ChatTurn], options: ModelRequestOptions = ModelRequestOptions()) -> ModelEventStream {
        ModelEventStream(
            request: provider.streamingRequest(
                for: turns, options: options, httpClient: httpClient, connectTimeout: connectTimeout),
            decoder: ModelStreamDecoder(dialect: provider.kind.dialect, limits: limits))
    }
}

/// The normalized events of one model answer, decoded as the body arrives.
public struct ModelEventStream: AsyncSequence, Sendable {
    public typealias Element = ModelEvent

    let request: StreamingRequest
    let decoder: ModelStreamDecoder

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: HTTPBodyReader(request), decoder: decoder)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var reader: HTTPBodyReader
        var decoder: ModelStreamDecoder
        var pending: [ModelEvent] = []
        var pendingIndex = 0
        var finished = false

        public mutating func next() async throws -> ModelEvent? {
            while true {
                if pendingIndex < pending.count {
                    defer { pendingIndex += 1 }
                    return pending[pendingIndex]
                }
                pendingIndex = 0
                if finished { return nil }
                let chunk: ByteBuffer?
                do {
                    chunk = try await reader.next()
                } catch let error as CadenceClientError where error.code == .transport {
                    // A broken connection mid-stream: keep what arrived and end as truncated.
                    finished = true
                    pending = (try? decoder.finish()) ?? []
                    pending.append(.error(ModelError(code: "connection_lost", message: error.message, retryable: true)))
                    continue
                }
                do {
                    if let chunk {
                        pending = try chunk.withUnsafeReadableBytes { try decoder.feed($0) }
                    } else {
                        finished = true
                        pending = try decoder.finish()
                    }
                } catch let error as ModelStreamError {
                    finished = true
                    throw CadenceClientError(.malformedStream, message: error.description, underlying: error)
                }
            }
        }
    }
}
