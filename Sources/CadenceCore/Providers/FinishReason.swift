/// Why a choice stopped.
///
/// Each dialect maps its provider's values (`finish_reason`, `stop_reason`, `finishReason`,
/// `done_reason`, the Responses status) onto these cases; a value Cadence does not know is kept
/// as ``other(_:)``. ``name`` is the stable string used in JSON output.
///
/// ```swift
/// FinishReason(name: "toolCalls")  // .toolCalls
/// FinishReason.contentFilter.name  // "contentFilter"
/// FinishReason.other("pause_turn").name  // "pause_turn"
/// ```
public enum FinishReason: Sendable, Hashable {
    /// The model finished its answer (or hit a stop sequence).
    case stop
    /// The output token limit was reached; the answer is cut.
    case length
    /// The model wants tools run before it goes on.
    case toolCalls
    /// The provider's content filter stopped the output.
    case contentFilter
    /// The model refused (Anthropic `refusal`).
    case refusal
    /// A safety system stopped the output (Gemini `SAFETY`, `RECITATION`, `PROHIBITED_CONTENT` …).
    case safety
    /// The stream reported an error; see the preceding ``ModelEvent/error(_:)``.
    case error
    /// The stream ended cleanly but without its terminator: the text so far is partial.
    case truncated
    /// A provider value Cadence does not map, kept verbatim.
    case other(String)

    /// The stable name: the case name (`"stop"`, `"toolCalls"`, `"contentFilter"` …), or the
    /// provider's own string for ``other(_:)``.
    public var name: String {
        switch self {
        case .stop: "stop"
        case .length: "length"
        case .toolCalls: "toolCalls"
        case .contentFilter: "contentFilter"
        case .refusal: "refusal"
        case .safety: "safety"
        case .error: "error"
        case .truncated: "truncated"
        case .other(let value): value
        }
    }

    /// The reason with this ``name``; an unknown name becomes ``other(_:)``.
    public init(name: String) {
        switch name {
        case "stop": self = .stop
        case "length": self = .length
        case "toolCalls": self = .toolCalls
        case "contentFilter": self = .contentFilter
        case "refusal": self = .refusal
        case "safety": self = .safety
        case "error": self = .error
        case "truncated": self = .truncated
        default: self = .other(name)
        }
    }
}
