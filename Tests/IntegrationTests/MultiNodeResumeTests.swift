import CadenceCore
import CadenceTesting
import Testing

/// A client that loses its connection to one node resumes on another and gets exactly the answer
/// the first node produced: no sequence repeated or missing, the text equal, wherever the cut fell.
@Suite("Multi-node: resuming on another node", .serialized, .needsPostgres)
struct MultiNodeResumeTests {
    @Test("another node replays a finished answer exactly, after every Last-Event-ID and every byte offset of a cut")
    func everyCutOfAFinishedAnswer() async throws {
        try await Self.withReference { cluster, reference in
            let b = cluster.nodes[1].baseURL
            try #require(reference.ending == .serverClosed, "node A's answer: \(reference)")
            try #require(reference.sequences == numbered(reference.events.count), "node A numbers events 1…n")
            try #require(reference.tokenCount > 20, "a long enough answer to cut: \(reference.text)")

            // What node B sends after each possible Last-Event-ID, 0 (everything) to the last (nothing).
            var replays: [AnswerConnection] = []
            for after in 0...reference.lastSequence {
                let replay = try await AnswerClient.resume(b, answerID: reference.answerID, after: after)
                #expect(replay.ending == .serverClosed, "after \(after)")
                #expect(
                    replay.events == Array(reference.events.dropFirst(after)), "node B after \(after)\n\(cluster.logs)")
                replays.append(replay)
            }

            // A client cut at any byte applied the events its bytes completed; node B's replay after the
            // last of them must complete the answer exactly.
            var decoder = SSEDecoder()
            var applied: [ResearchEvent] = []
            var failures = 0
            for offset in 0...reference.bytes.count {
                if offset > 0 {
                    for item in try decoder.feed(reference.bytes[(offset - 1)..<offset]) {
                        if let event = try ResearchEventDecoder.decode(item), event.sequence != nil {
                            applied.append(event)
                        }
                    }
                }
                let replay = replays[applied.last?.sequence ?? 0]
                let events = applied + replay.events
                let sequences = events.compactMap(\.sequence)
                let text = AnswerConnection(answerID: "", events: events).text
                if sequences != reference.sequences || text != reference.text {
                    failures += 1
                    Issue.record("cut at byte \(offset): sequences \(sequences), text \(text)")
                    if failures > 3 { break }
                }
            }
        }
    }

    @Test("a client cut anywhere in a live answer resumes on another node and gets exactly the rest")
    func liveCutsResumeOnAnotherNode() async throws {
        try await Self.withReference { cluster, reference in
            let (a, b) = (cluster.nodes[0].baseURL, cluster.nodes[1].baseURL)

            // Cut points around several events spread over the answer: the byte before an event's end
            // (not yet dispatched), its end, the byte after it, and its middle.
            let frameEnds = Self.frameEnds(reference.bytes)
            let count = frameEnds.count
            let picked = Set(
                [0, 1, 4, count / 4, count / 2, 3 * count / 4, count - 3, count - 2].filter { $0 >= 0 && $0 < count })
            var cuts: Set<Int> = []
            for index in picked {
                let start = index == 0 ? 0 : frameEnds[index - 1]
                cuts.formUnion([
                    frameEnds[index] - 1, frameEnds[index], frameEnds[index] + 1, (start + frameEnds[index]) / 2,
                ])
            }

            // Every cut is its own live answer on A, all at once; each resumes on B at once after its cut,
            // while A is still producing.
            let outcomes = try await withThrowingTaskGroup(of: (Int, AnswerConnection, AnswerConnection).self) {
                group in
                for cut in cuts.sorted() {
                    group.addTask {
                        let first = try await AnswerClient.ask(a, query: multiNodeQuestion, stop: .afterBytes(cut))
                        let rest = try await AnswerClient.resume(b, answerID: first.answerID, after: first.lastSequence)
                        return (cut, first, rest)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            var resumedLive = 0
            for (cut, first, rest) in outcomes.sorted(by: { $0.0 < $1.0 }) {
                #expect(
                    rest.ending == .serverClosed && rest.endsWithComplete, "cut at \(cut): \(rest.events.last as Any)")
                #expect(
                    first.sequences + rest.sequences == numbered(first.events.count + rest.events.count),
                    "cut at \(cut): A sent \(first.sequences), B sent \(rest.sequences)")
                #expect(first.text + rest.text == reference.text, "cut at \(cut)")
                #expect(
                    first.events.map(\.kind.wireType) + rest.events.map(\.kind.wireType)
                        == reference.events.map(\.kind.wireType))
                if !first.endsWithComplete { resumedLive += 1 }
            }
            #expect(
                resumedLive >= cuts.count - 8, "most cuts fall before the answer ends: \(resumedLive) of \(cuts.count)")
            if outcomes.count != cuts.count { Issue.record("\(cluster.logs)") }
        }
    }

    /// The byte offsets just after each event's blank line (`\n\n`), comments included.
    static func frameEnds(_ bytes: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var index = 1
        while index < bytes.count {
            if bytes[index] == 0x0A, bytes[index - 1] == 0x0A { ends.append(index + 1) }
            index += 1
        }
        return ends
    }

    /// Runs `body` with two nodes and the answer node 0 (A) gave to ``multiNodeQuestion``, complete:
    /// the reference every resume on node 1 (B) must match. Stops the nodes after.
    static func withReference(_ body: (NodeCluster, AnswerConnection) async throws -> Void) async throws {
        let cluster = try await NodeCluster.start(nodes: 2)
        defer { cluster.stop() }
        let reference = try await AnswerClient.ask(cluster.nodes[0].baseURL, query: multiNodeQuestion)
        try #require(reference.endsWithComplete, "node A's answer: \(reference)")
        try await body(cluster, reference)
    }
}
