/// A ``ModelStreamDecoder`` stopped because a line or an event exceeded its ``SSELimits``: the body
/// is probably not the stream it claims to be.
///
/// ```swift
/// do { _ = try decoder.feed(bytes) } catch { print(error) }  // names the limit and how to raise it
/// ```
public struct ModelStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit was exceeded.
    public enum Code: Sendable, Hashable {
        /// An SSE event's data grew past ``SSELimits/maxEventBytes``.
        case eventTooLarge
        /// An SSE or NDJSON line grew past ``SSELimits/maxLineBytes``.
        case lineTooLong
    }

    /// Which limit was exceeded.
    public var code: Code
    /// What happened and what to do.
    public var message: String

    init(_ error: SSEDecoderError) {
        code = error.code == .eventTooLarge ? .eventTooLarge : .lineTooLong
        message = error.description
    }

    init(_ error: NDJSONDecoderError) {
        code = .lineTooLong
        message = error.message
    }

    public var description: String { message }
}
