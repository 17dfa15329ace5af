import CadenceCore
import Testing

/// Reading the JSON object out of a model's plan or reflection reply: found where models put it,
/// in work linear in the reply (counted, never timed), and given up when the answer is cancelled.
@Suite struct EmbeddedJSONObjectTests {
    /// The pathological plan reply of issue 33: an unclosed string, then `count` closing braces.
    static func unclosedString(_ count: Int) -> String { #"{"queries":""# + String(repeating: "}", count: count) }

    @Test(arguments: [
        (#"{"queries": ["a"]}"#, #"{"queries": ["a"]}"#),
        ("Sure! Here it is:\n```json\n{\"queries\": [\"a\"]}\n```", #"{"queries": ["a"]}"#),
        (#"{not json} then {"queries": ["b"]} and {"c": 1}"#, #"{"queries": ["b"]}"#),
        (#"{"q": "a } in a string \" and \\", "n": {"x": [1]}}"#, #"{"q": "a } in a string \" and \\", "n": {"x": [1]}}"#),
        ("stray } first, then {\"a\": 1}", #"{"a": 1}"#),
    ])
    func findsTheFirstObject(reply: String, expected: String) throws {
        let found = EmbeddedJSONObject(in: reply)
        #expect(found.object == (try JSONValue(parsing: expected)).objectValue)
        #expect(found.steps <= 2 * reply.utf8.count)
    }

    @Test(arguments: ["", "no braces at all", "[1, 2]", #"{"queries": ["a"]"#, "{ {\"a\": 1}", Self.unclosedString(100)])
    func findsNothingWhereNoObjectCloses(reply: String) {
        #expect(EmbeddedJSONObject(in: reply).object == nil)
    }

    /// What the search before this one did: from each `{`, every `}` from the end backwards, each
    /// candidate parsed from scratch. Its steps, counted like ``EmbeddedJSONObject/steps``.
    static func stepsOfTheEarlierSearch(_ reply: String) -> Int {
        var steps = 0
        var searchStart = reply.startIndex
        while let open = reply[searchStart...].firstIndex(of: "{") {
            var close = reply.endIndex
            while let end = reply[open..<close].lastIndex(of: "}") {
                steps += reply.utf8.distance(from: end, to: close) + reply.utf8.distance(from: open, to: end) + 1
                if (try? JSONValue(parsing: String(reply[open...end])).objectValue) != nil { return steps }
                close = end
            }
            searchStart = reply.index(after: open)
        }
        return steps
    }

    /// The earlier search was quadratic on the issue's reply (99 CPU-seconds at 200,000 braces):
    /// doubling the reply quadrupled its work. Now doubling it doubles the work, and the work stays
    /// within two steps per byte at the issue's full size.
    @Test func workIsLinearInTheReply() {
        let (small, large) = (Self.unclosedString(1_000), Self.unclosedString(2_000))
        let earlier = Double(Self.stepsOfTheEarlierSearch(large)) / Double(Self.stepsOfTheEarlierSearch(small))
        #expect(earlier > 3.5, "the earlier search grew \(earlier)× for twice the reply")
        let now = Double(EmbeddedJSONObject(in: large).steps) / Double(EmbeddedJSONObject(in: small).steps)
        #expect(now < 2.1, "the search grew \(now)× for twice the reply")

        let issue = Self.unclosedString(200_000)
        #expect(EmbeddedJSONObject(in: issue).steps <= 2 * issue.utf8.count)
    }

    @Test(arguments: [
        String(repeating: "{", count: 50_000) + String(repeating: "}", count: 25_000),
        String(repeating: "{}", count: 50_000),
        String(repeating: "{\"a\":", count: 20_000) + String(repeating: "}", count: 20_000),
        String(repeating: "{x}", count: 30_000),
        String(repeating: "\\\"{", count: 30_000),
    ])
    func hostilePatternsStayWithinTwoStepsPerByte(reply: String) {
        let found = EmbeddedJSONObject(in: reply)
        #expect(found.steps <= 2 * reply.utf8.count, "\(found.steps) steps for \(reply.utf8.count) bytes")
    }

    /// A cancelled answer's reply is not read to its end.
    @Test func aCancelledTaskStopsReading() async {
        let reply = Self.unclosedString(200_000)
        let found = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return EmbeddedJSONObject(in: reply)
        }.value
        #expect(found.wasCancelled)
        #expect(found.object == nil)
        #expect(found.steps < reply.utf8.count)
    }
}
