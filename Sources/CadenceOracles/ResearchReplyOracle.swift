import CadenceCore

/// A model's plan or reflection reply is read in linear work, and a reply that is a JSON object is
/// read as that object.
///
/// The payload is the reply's text. `EmbeddedJSONObject` must take at most two steps per byte
/// (each byte scanned once, parsed at most once), counted by its own work counter, never timed; a
/// reply that parses as a JSON object must give that object, alone and inside a code fence after
/// prose, as models often send it.
public enum ResearchReplyOracle: FuzzOracle {
    public static let target = "research-reply"

    public static func check(_ data: [UInt8]) throws(OracleViolation) {
        let reply = String(decoding: FuzzInput(data).payload, as: UTF8.self)
        let found = EmbeddedJSONObject(in: reply)
        let bytes = reply.utf8.count
        if found.steps > 2 * bytes {
            throw OracleViolation("reading the reply took more than two steps per byte", "\(found.steps) steps for \(bytes) bytes")
        }
        guard let whole = (try? JSONValue(parsing: reply))?.objectValue else { return }
        try OracleViolation.expect(found.object, equals: whole, "a reply that is a JSON object reads differently")
        let fenced = EmbeddedJSONObject(in: "Here is the plan:\n```json\n" + reply + "\n```\n")
        try OracleViolation.expect(fenced.object, equals: whole, "a JSON object in a code fence reads differently")
    }
}
