/// Size limits that keep an ``SSEDecoder``'s memory bounded on a hostile or broken stream.
///
/// ```swift
/// let limits = SSELimits(maxEventBytes: 1 << 20, maxLineBytes: 64 << 10)
/// var decoder = SSEDecoder(limits: limits)
/// ```
public struct SSELimits: Sendable, Hashable {
    /// The largest `data` an event may carry, in UTF-8 bytes, counting the LFs that join its
    /// data lines. Real servers send multi-megabyte events, so the default is 16 MiB.
    public var maxEventBytes: Int
    /// The longest line the decoder accepts, in bytes, counting the field name but not the
    /// line ending. The default, 16 MiB + 1 KiB, lets a maximal event arrive as a single
    /// `data:` line. The unfinished part of a line never grows past this, so a stream without
    /// any newline fails instead of filling memory.
    public var maxLineBytes: Int

    /// 16 MiB events, lines up to 16 MiB + 1 KiB.
    public static let `default` = SSELimits()

    /// Creates limits; both must be positive.
    public init(maxEventBytes: Int = 16 << 20, maxLineBytes: Int = (16 << 20) + 1024) {
        precondition(maxEventBytes > 0 && maxLineBytes > 0, "SSE limits must be positive")
        self.maxEventBytes = maxEventBytes
        self.maxLineBytes = maxLineBytes
    }
}
