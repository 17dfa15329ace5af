/// A research event could not be decoded. The message names the event and what was wrong.
///
/// ```swift
/// do { _ = try ResearchEventDecoder().decode(sseEvent) }
/// catch { print(error) }  // "cannot decode research event 'token': "content" must be a string; it is missing"
/// ```
public struct ResearchDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong: the data is not JSON, or not a JSON object, or a member the event needs is
    /// missing or of the wrong type.
    public enum Code: Sendable, Hashable {
        case invalidJSON, notAnObject, missingMember, wrongType
    }

    public var code: Code
    /// The event's `type`, when it could be read.
    public var eventType: String?
    public var detail: String

    public init(_ code: Code, eventType: String?, detail: String) {
        self.code = code
        self.eventType = eventType
        self.detail = detail
    }

    public var description: String {
        "cannot decode research event\(eventType.map { " '\($0)'" } ?? ""): \(detail)"
    }
}
