import CadenceCore

@testable import CadenceEngine

/// Everything one answer streamed, gathered for assertions.
struct AnswerRun {
    var events: [ResearchEvent.Kind] = []

    init(_ engine: some AnswerEngine, _ query: String, history: [ChatTurn] = []) async throws {
        for try await event in engine.answer(AnswerRequest(query: query, history: history)) {
            events.append(event)
        }
    }

    var tokens: [String] { events.compactMap { if case .token(let text) = $0 { text } else { nil } } }
    var text: String { tokens.joined() }

    var sources: [Source]? {
        events.lazy.compactMap { if case .sourcesReady(let sources) = $0 { sources } else { nil } }.first
    }

    var completion: Completion? {
        events.lazy.compactMap { if case .complete(let completion) = $0 { completion } else { nil } }.first
    }

    var plannedQueries: [String] {
        events.lazy.compactMap { if case .planningComplete(_, let queries) = $0 { queries } else { nil } }.first ?? []
    }

    var tier: String? {
        events.lazy.compactMap { if case .tierSelected(let tier, _) = $0 { tier } else { nil } }.first
    }

    /// The numbers of every `[n]` citation in the text.
    var citations: [Int] {
        var numbers: [Int] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            let digits = after.prefix(while: \.isNumber)
            if !digits.isEmpty, after.dropFirst(digits.count).first == "]" { numbers.append(Int(digits)!) }
            rest = after
        }
        return numbers
    }

    /// The position of the first event of a type, by its wire name.
    func firstIndex(of type: String) -> Int? {
        events.firstIndex { $0.wireType == type }
    }

    func lastIndex(of type: String) -> Int? {
        events.lastIndex { $0.wireType == type }
    }
}
