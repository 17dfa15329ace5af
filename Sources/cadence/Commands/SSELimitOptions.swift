import ArgumentParser
import CadenceCore

/// The SSE decoder's limits for `decode --events`: the longest line and the largest event it holds.
struct SSELimitOptions: ParsableArguments {
    @Option(name: .long, help: "The longest line accepted, in bytes (default 16 MiB + 1 KiB).")
    var maxLineBytes: Int?

    @Option(name: .long, help: "The largest event accepted, in bytes (default 16 MiB).")
    var maxEventBytes: Int?

    func validate() throws {
        if let maxLineBytes, maxLineBytes < 1 { throw ValidationError("--max-line-bytes must be at least 1") }
        if let maxEventBytes, maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1") }
    }

    /// The default limits, with what the flags set.
    var limits: SSELimits {
        var limits = SSELimits.default
        if let maxLineBytes { limits.maxLineBytes = maxLineBytes }
        if let maxEventBytes { limits.maxEventBytes = maxEventBytes }
        return limits
    }
}
