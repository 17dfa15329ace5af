/// A limit from ``SSELimits`` was exceeded: the stream is broken, hostile, or sends larger
/// events than this decoder was configured for.
///
/// ```swift
/// var decoder = SSEDecoder(limits: SSELimits(maxEventBytes: 4))
/// do { _ = try decoder.feed(Array("data: too long\n\n".utf8)) } catch {
///     print(error)  // SSE event data is larger than the limit of 4 bytes (at least 8 bytes seen) …
/// }
/// ```
public struct SSEDecoderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which limit was exceeded.
    public enum Code: Sendable, Hashable {
        /// An event's data grew past ``SSELimits/maxEventBytes``.
        case eventTooLarge
        /// A line grew past ``SSELimits/maxLineBytes`` (including a stream with no newline).
        case lineTooLong
    }

    /// Which limit was exceeded.
    public var code: Code
    /// The configured limit, in bytes.
    public var limit: Int
    /// How many bytes the decoder had seen when it stopped: always more than `limit`, and a
    /// lower bound on the real size, since the decoder stops reading at the limit.
    public var seen: Int

    public var description: String {
        switch code {
        case .eventTooLarge:
            "SSE event data is larger than the limit of \(limit) bytes (at least \(seen) bytes seen); "
                + "raise SSELimits.maxEventBytes if the server really sends events this large."
        case .lineTooLong:
            "SSE line is longer than the limit of \(limit) bytes (at least \(seen) bytes seen without a line "
                + "ending); check that the response really is text/event-stream, or raise SSELimits.maxLineBytes."
        }
    }
}
