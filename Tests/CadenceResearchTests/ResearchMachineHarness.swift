import CadenceCore
import CadenceSearch
@testable import CadenceResearch

/// A synchronous driver for ``ResearchMachine`` in tests: it answers model calls from a script,
/// runs searches on a fixed table, and records every action, with time advancing by `step` per call.
struct ResearchMachineHarness {
    /// What a scripted model call does.
    enum Reply {
        /// Streams these text pieces, then usage, then finish(stop).
        case text([String], usage: ModelUsage? = nil, finish: FinishReason? = .stop)
        /// Throws before any output.
        case failure(ResearchMachine.ModelFailure)
        /// Streams these pieces, then an error event.
        case errorAfter([String], ModelError)
        /// Streams these pieces and then goes silent (the harness stops; the test fires deadlines).
        case silentAfter([String])
    }

    var machine: ResearchMachine
    var replies: [ResearchMachine.ModelCall.Purpose: [Reply]]
    var passages: [String: [RetrievedPassage]]
    /// When set, what every source gives for a round's queries (instead of `passages` on one source).
    var outcomes: (([String]) -> [SearchOutcome])?
    /// What reading each page gives; a page not named here fails.
    var pages: [String: PageReading] = [:]
    var now: Duration = .zero
    let step: Duration = .milliseconds(10)
    private(set) var actions: [ResearchMachine.Action] = []
    private(set) var calls: [ResearchMachine.ModelCall] = []
    /// Set when a call went silent: the harness waits for the test to fire a deadline.
    private(set) var waiting = false

    init(
        query: String = "How does Cadence resume a stream?", history: [ChatTurn] = [],
        configuration: ResearchConfiguration = ResearchConfiguration(), searchSources: [String] = ["corpus"],
        replies: [ResearchMachine.ModelCall.Purpose: [Reply]], passages: [String: [RetrievedPassage]] = [:]
    ) {
        machine = ResearchMachine(
            request: AnswerRequest(query: query, history: history), configuration: configuration, model: "test-model",
            searchSources: searchSources, random: SplitMix64(seed: 7))
        self.replies = replies
        self.passages = passages
    }

    /// Starts the machine and runs until it finishes or waits on a deadline.
    mutating func run() {
        perform(machine.start(now: now))
    }

    /// Moves time to the machine's next deadline and fires it.
    mutating func fireDeadline() {
        guard let deadline = machine.nextDeadline else { return }
        now = max(now, deadline)
        waiting = false
        perform(machine.deadlinePassed(now: now))
    }

    mutating func perform(_ initial: [ResearchMachine.Action]) {
        var queue = initial
        while !queue.isEmpty {
            let action = queue.removeFirst()
            actions.append(action)
            switch action {
            case .emit, .finish, .closeModelCall:
                break
            case .search(let queries):
                now += step
                if let outcomes {
                    queue += machine.searchCompleted(outcomes(queries), now: now)
                } else {
                    queue += machine.searchCompleted(queries.map { passages[$0] ?? [] }, now: now)
                }
            case .readPages(let urls, _):
                now += step
                queue += machine.pagesRead(
                    urls.map { pages[$0] ?? PageReading(url: $0, failure: "no such page") }, now: now)
            case .callModel(let call):
                calls.append(call)
                queue += respond(to: call)
            }
        }
    }

    private mutating func respond(to call: ResearchMachine.ModelCall) -> [ResearchMachine.Action] {
        var script = replies[call.purpose] ?? []
        let reply = script.isEmpty ? .text(["{}"]) : script.removeFirst()
        replies[call.purpose] = script
        var out: [ResearchMachine.Action] = []
        func stream(_ pieces: [String]) {
            for piece in pieces {
                now += step
                out += machine.modelEvent(.text(piece), now: now)
            }
        }
        switch reply {
        case .text(let pieces, let usage, let finish):
            stream(pieces)
            if let usage { out += machine.modelEvent(.usage(usage), now: now) }
            if let finish { out += machine.modelEvent(.finish(finish), now: now) }
            now += step
            out += machine.modelEnded(now: now)
        case .failure(let failure):
            now += step
            out += machine.modelFailed(failure, now: now)
        case .errorAfter(let pieces, let error):
            stream(pieces)
            out += machine.modelEvent(.error(error), now: now)
            out += machine.modelEnded(now: now)
        case .silentAfter(let pieces):
            stream(pieces)
            waiting = true
        }
        return out
    }

    /// The emitted events, in order.
    var events: [ResearchEvent.Kind] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    /// The answer text sent as tokens.
    var text: String {
        events.map { if case .token(let text) = $0 { text } else { "" } }.joined()
    }

    /// The `complete` event's completion, if one was sent.
    var completion: Completion? {
        for event in events { if case .complete(let completion) = event { return completion } }
        return nil
    }

    /// The `error` event, if one was sent.
    var error: (code: String, message: String)? {
        for event in events { if case .error(let code, let message) = event { return (code, message) } }
        return nil
    }

    /// Wire types of the emitted events, tokens collapsed into one "token".
    var stages: [String] {
        var out: [String] = []
        for event in events where !(event.wireType == "token" && out.last == "token") { out.append(event.wireType) }
        return out
    }
}

/// A passage for tests.
func passage(_ id: Int, _ title: String, _ text: String, score: Double = 1, document: String? = nil) -> RetrievedPassage {
    RetrievedPassage(
        id: id, title: title, heading: nil, url: "cadence://test/\(document ?? title).md#p\(id)", text: text, score: score)
}
