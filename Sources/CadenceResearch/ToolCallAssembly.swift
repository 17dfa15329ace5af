import CadenceCore

/// Puts a model's tool calls together from their streamed fragments (one choice), and says when
/// each is whole: when the next call starts, or when the choice finishes.
///
/// Providers stream calls one after another: the first fragment of a call usually carries its `id`
/// and `name`, later ones more of its arguments. A fragment of a call already handed out (a provider
/// that interleaves calls) cannot be added to it any more; it is counted in ``droppedFragments``.
///
/// ```swift
/// var assembly = ToolCallAssembly()
/// assembly.add(ToolCallDelta(index: 0, id: "call_1", name: "get_weather", argumentsDelta: "{\"city\":"))  // []
/// assembly.add(ToolCallDelta(index: 0, argumentsDelta: "\"Paris\"}"))                                  // []
/// assembly.add(ToolCallDelta(index: 1, id: "call_2", name: "get_time"))   // [ToolCall(id: "call_1", …)]
/// assembly.finish()                                                       // [ToolCall(id: "call_2", …)]
/// ```
struct ToolCallAssembly: Sendable, Hashable {
    /// The most bytes of arguments kept per call: past the largest event the server sends, so a call
    /// cut here is also marked as trimmed when it is sent.
    static let maxArgumentBytes = EventBounds().maxEventBytes + 1

    /// The call being put together, if any.
    private var open: ToolCallDelta?
    /// The indexes of the calls already handed out.
    private var handedOut: Set<Int> = []
    /// Fragments that arrived after their call was handed out, and were dropped.
    private(set) var droppedFragments = 0

    init() {}

    /// Adds one fragment; returns the call it completes (the one before it), if any.
    mutating func add(_ fragment: ToolCallDelta) -> [ToolCall] {
        if handedOut.contains(fragment.index) {
            droppedFragments += 1
            return []
        }
        if var call = open, call.index == fragment.index {
            call.id = call.id ?? fragment.id
            call.name = call.name ?? fragment.name
            let room = Self.maxArgumentBytes - call.argumentsDelta.utf8.count
            call.argumentsDelta += fragment.argumentsDelta.prefix(utf8Bytes: room)
            open = call
            return []
        }
        let done = finish()
        var first = fragment
        first.argumentsDelta = String(fragment.argumentsDelta.prefix(utf8Bytes: Self.maxArgumentBytes))
        open = first
        return done
    }

    /// The choice finished: the call being put together, if any, is whole.
    mutating func finish() -> [ToolCall] {
        guard let call = open else { return [] }
        open = nil
        handedOut.insert(call.index)
        return [ToolCall(id: call.id ?? "", name: call.name ?? "", arguments: call.argumentsDelta)]
    }
}
