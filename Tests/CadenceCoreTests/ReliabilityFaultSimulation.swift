import CadenceCore
import Testing

/// A generated answer: the server's whole event stream, and the text and reasoning it spells.
struct GeneratedAnswer {
    var events: [ResearchEvent] = []
    var text = ""
    var reasoning = ""

    private static let pieces = ["The", " ", "answer", "é", "😀", "日本語", "[1]", "\n", "e\u{301}", "ß", ", ", "🇫🇷"]
    private static let urls = ["https://a.example/", "https://b.example/", "https://c.example/", "https://d.example/"]

    /// Stages, sources, reasoning, tokens, `: flush-tokens` (unsequenced), `complete`, then maybe trailing tokens.
    init(using random: inout SplitMix64) {
        var sequence = 0
        func add(_ kind: ResearchEvent.Kind) {
            sequence += 1
            events.append(ResearchEvent(sequence: sequence, kind: kind))
        }
        func addToken() {
            let piece = Self.pieces.randomElement(using: &random)!
            text += piece
            add(.token(piece))
        }
        func someSources() -> [Source] {
            (0..<Int.random(in: 0...3, using: &random)).map { index in
                let url = Self.urls.randomElement(using: &random)!
                return Source(id: "\(index + 1)", title: url, url: url)
            }
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) { add(.searching(source: "corpus")) }
        add(.sourcesReady(someSources()))
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let piece = Self.pieces.randomElement(using: &random)!
            reasoning += piece
            add(.reasoning(piece))
        }
        for _ in 0..<Int.random(in: 1...40, using: &random) { addToken() }
        events.append(ResearchEvent(kind: .flushTokens))
        add(.complete(Completion(sources: someSources(), followUps: ["More?"])))
        for _ in 0..<Int.random(in: 0...2, using: &random) { addToken() }
    }
}

/// Drives an ``AnswerStreamMachine`` against a simulated server that drops, replays duplicates,
/// refuses connections, sends keepalives and stalls, all chosen by a seeded generator.
struct FaultSimulation {
    /// `friendly` faults always let the answer finish (each connection makes progress, at most one
    /// refusal in a row); `harsh` faults may make it fail (no answer id, stalls, refusals in a row).
    enum Faults { case friendly, harsh }

    let answer: GeneratedAnswer
    let faults: Faults
    var random: SplitMix64
    var machine: AnswerStreamMachine
    var now: Duration = .zero
    var updates: [AnswerUpdate] = []
    var hung = false
    private var lastWasRefused = false

    init(seed: UInt64, faults: Faults) {
        random = SplitMix64(seed: seed)
        answer = GeneratedAnswer(using: &random)
        self.faults = faults
        machine = AnswerStreamMachine(configuration: .init(), random: SplitMix64(seed: seed &+ 1))
    }

    mutating func run() {
        var actions = machine.start(now: now)
        for _ in 0..<10_000 {
            var connect: ResumeCursor?? = nil
            for action in actions {
                switch action {
                case .emit(let update): updates.append(update)
                case .connect(let resume): connect = .some(resume)
                case .closeConnection: break
                }
            }
            if machine.isFinished { return }
            if let resume = connect {
                actions = serve(resume: resume)
            } else if let deadline = machine.nextDeadline {
                now = max(now, deadline)
                actions = machine.deadlinePassed(now: now)
            } else {
                break
            }
        }
        hung = true
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    private mutating func tick() {
        now += .milliseconds(Int.random(in: 0...400, using: &random))
    }

    /// One connection, from `connect` to its end. Returns every action the machine asked for.
    private mutating func serve(resume: ResumeCursor?) -> [AnswerStreamMachine.Action] {
        tick()
        let mayRefuse = faults == .harsh || !lastWasRefused
        lastWasRefused = mayRefuse && chance(0.2)
        if lastWasRefused {
            let failure: ConnectionFailure =
                chance(0.5) ? .status(503, message: "HTTP 503") : .transport("refused", beforeFirstByte: true)
            return machine.connectionFailed(failure, now: now)
        }
        let answerID = faults == .harsh && chance(0.1) ? nil : "answer-1"
        var actions = machine.connected(answerID: answerID, now: now)
        let last = resume?.lastSequence ?? 0
        let replayFrom = max(0, last - Int.random(in: 0...3, using: &random))
        let start = answer.events.firstIndex { ($0.sequence ?? .max) > replayFrom } ?? answer.events.count
        let minimum = faults == .friendly ? 1 : 0
        let dropAfter = chance(0.6) ? Int.random(in: minimum...8, using: &random) : Int.max
        var delivered = 0
        for event in answer.events[start...] {
            if chance(0.2) {
                tick()
                actions += machine.keepAliveReceived(now: now)
            }
            tick()
            actions += machine.received(event, now: now)
            if machine.isFinished { return actions }
            if let sequence = event.sequence, sequence > last { delivered += 1 }
            if delivered >= dropAfter { return actions + drop() }
        }
        if chance(0.1) { return actions + drop() }
        tick()
        return actions + machine.connectionClosed(now: now)
    }

    /// Ends the connection badly: a reset, a clean close before `complete` (a clean close after it
    /// is the protocol's end of the answer, so there it is a reset), or (harsh) a stall.
    private mutating func drop() -> [AnswerStreamMachine.Action] {
        tick()
        switch Int.random(in: 0..<3, using: &random) {
        case 1 where faults == .harsh: return []  // silence: the byte-idle timeout must notice
        case 2 where machine.storedCompletion == nil: return machine.connectionClosed(now: now)
        default: return machine.connectionFailed(.transport("connection reset", beforeFirstByte: false), now: now)
        }
    }

    /// Every `textAppended`, joined.
    var appendedText: String {
        updates.reduce(into: "") { text, update in
            if case .textAppended(let piece) = update { text += piece }
        }
    }

    var appendedReasoning: String {
        updates.reduce(into: "") { reasoning, update in
            if case .reasoningAppended(let piece) = update { reasoning += piece }
        }
    }
}
