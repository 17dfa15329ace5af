import ArgumentParser
import CadenceCore

/// The decoder's limits for `decode` (`--events` and `--dialect`): the longest line and the largest
/// event it holds.
struct SSELimitOptions: ParsableArguments {
    @Option(name: .long, help: "The longest line accepted, in bytes (default 16 MiB + 1 KiB).")
    var maxLineBytes: Int?

    @Option(name: .long, help: "The largest event accepted, in bytes (default 16 MiB).")
    var maxEventBytes: Int?

    func validate() throws {
        if let maxLineBytes, maxLineBytes < 1 { throw ValidationError("--max-line-bytes must be at least 1") }
        if let maxEventBytes, maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1") }
    }

    /// A limit error as the command says it: naming the option that raises the limit, where the
    /// library's own message names `SSELimits`, which the command's user cannot set.
    static func message(_ code: SSEDecoderError.Code, limit: Int) -> String {
        switch code {
        case .lineTooLong:
            "a line is longer than the limit of \(limit) bytes; check that the input really is this kind of stream, "
                + "or raise --max-line-bytes"
        case .eventTooLarge:
            "an event's data is larger than the limit of \(limit) bytes; raise --max-event-bytes if the stream really "
                + "sends events this large"
        }
    }

    /// The default limits, with what the flags set.
    var limits: SSELimits {
        var limits = SSELimits.default
        if let maxLineBytes { limits.maxLineBytes = maxLineBytes }
        if let maxEventBytes { limits.maxEventBytes = maxEventBytes }
        return limits
    }
}
