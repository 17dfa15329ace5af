/// A fragment of a tool (function) call requested by the model.
///
/// Providers stream a call in pieces: the first usually carries `id` and `name`, later ones only more
/// of the JSON arguments. Concatenate `argumentsDelta` of all fragments with the same `choice` and
/// `index` to get the arguments.
///
/// ```swift
/// let first = ToolCallDelta(index: 0, id: "call_1", name: "get_weather", argumentsDelta: "{\"city\":")
/// let rest = ToolCallDelta(index: 0, argumentsDelta: "\"Paris\"}")
/// first.argumentsDelta + rest.argumentsDelta  // {"city":"Paris"}
/// ```
public struct ToolCallDelta: Sendable, Hashable {
    /// The choice (OpenAI `n`, Gemini candidate) the call belongs to.
    public var choice: Int
    /// The position of the call among the choice's tool calls, counting from 0.
    public var index: Int
    /// The provider's call identifier, when this fragment carries it.
    public var id: String?
    /// The tool's name, when this fragment carries it.
    public var name: String?
    /// More of the call's JSON arguments (possibly empty).
    public var argumentsDelta: String

    public init(choice: Int = 0, index: Int, id: String? = nil, name: String? = nil, argumentsDelta: String = "") {
        self.choice = choice
        self.index = index
        self.id = id
        self.name = name
        self.argumentsDelta = argumentsDelta
    }
}
