public import CadenceCore

/// The events a ``FaultServer`` serves for its answer, numbered from 1, and their SSE bytes.
///
/// ```swift
/// let script = FaultScript.answer(text: "Grüße aus Köln 🎉", tokenCharacters: 3)
/// print(script.text)            // the full answer text
/// print(script.bytes(after: 0).count)
/// ```
public struct FaultScript: Sendable {
    /// The events, sequenced from 1; a `ResearchEvent/Kind/flushTokens` marker has no sequence.
    public let events: [ResearchEvent]

    /// Numbers `kinds` from 1 (a `flushTokens` marker takes no number).
    public init(_ kinds: [ResearchEvent.Kind]) {
        var sequence = 0
        events = kinds.map { kind in
            if case .flushTokens = kind { return ResearchEvent(kind: kind) }
            sequence += 1
            return ResearchEvent(sequence: sequence, kind: kind)
        }
    }

    /// A research answer whose tokens concatenate to `text`: stages, sources, tokens of
    /// `tokenCharacters` characters each, `: flush-tokens` and `complete`.
    public static func answer(text: String, tokenCharacters: Int = 4) -> FaultScript {
        let source = Source(id: "1", title: "Fault injection", url: "https://example.com/faults", snippet: "A test source")
        var kinds: [ResearchEvent.Kind] = [
            .tierSelected(tier: "quick", reason: "a test"),
            .searching(source: "faults"),
            .sourcesReady([source]),
        ]
        var characters = Substring(text)
        while !characters.isEmpty {
            kinds.append(.token(String(characters.prefix(max(1, tokenCharacters)))))
            characters = characters.dropFirst(max(1, tokenCharacters))
        }
        kinds.append(.flushTokens)
        kinds.append(.complete(Completion(sources: [source], metadata: [:], followUps: [])))
        return FaultScript(kinds)
    }

    /// The concatenated text of the tokens after sequence `after`.
    public func text(after: Int = 0) -> String {
        events(after: after).reduce(into: "") { text, event in
            if case .token(let token) = event.kind { text += token }
        }
    }

    /// The full answer text.
    public var text: String { text(after: 0) }

    /// The last sequence number.
    public var lastSequence: Int { events.last(where: { $0.sequence != nil })?.sequence ?? 0 }

    /// The events after `after`; a marker goes with the event that follows it.
    public func events(after: Int) -> [ResearchEvent] {
        var result: [ResearchEvent] = []
        var pending: [ResearchEvent] = []
        for event in events {
            guard let sequence = event.sequence else {
                pending.append(event)
                continue
            }
            if sequence > after { result += pending + [event] }
            pending = []
        }
        return result
    }

    /// The SSE frames of the events after `after`, with the offset where each frame ends.
    public func frames(after: Int) -> (bytes: [UInt8], frameEnds: [Int]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for event in events(after: after) {
            bytes += Array(ResearchEventEncoder.frame(event).utf8)
            ends.append(bytes.count)
        }
        return (bytes, ends)
    }

    /// The SSE body for a request resuming after `after` (0 for a new answer).
    public func bytes(after: Int) -> [UInt8] { frames(after: after).bytes }
}
