/// A ``ModelStreamDecoder`` stopped because a line or an event exceeded its ``SSELimits``: the body
/// is probably not the stream it claims to be.
///
/// ```swift
/// do { _ = try decoder.feed(bytes) } catch { print(error) }  // names the limit and how to raise it
/// ```
public struct ModelStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit was exceeded: the same two limits as the SSE decoder's (an NDJSON line too long is
    /// ``SSEDecoderError/Code/lineTooLong``).
    public typealias Code = SSEDecoderError.Code

    /// Which limit was exceeded.
    public var code: Code
    /// The limit that was exceeded, in bytes.
    public var limit: Int
    /// What happened and what to do.
    public var message: String

    init(_ error: SSEDecoderError) {
        code = error.code
        limit = error.limit
        message = error.description
    }

    init(_ error: NDJSONDecoderError) {
        code = .lineTooLong
        limit = error.limit
        message = error.message
    }

    public var description: String { message }
}
