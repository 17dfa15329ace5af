public import CadenceCore

/// Every update of one answer (an `AnswerStream` or a model's `ModelAnswerStream`), read to its end.
public func collectUpdates(_ answer: some AsyncSequence<AnswerUpdate, Never>) async -> [AnswerUpdate] {
    var updates: [AnswerUpdate] = []
    for await update in answer { updates.append(update) }
    return updates
}

extension [AnswerUpdate] {
    /// The answer's text as the updates delivered it.
    public var text: String {
        reduce(into: "") { if case .textAppended(let piece) = $1 { $0 += piece } }
    }
}

extension AnswerUpdate {
    /// The completion, when this is `.completed`.
    public var completion: AnswerCompletion? {
        if case .completed(let completion) = self { completion } else { nil }
    }

    /// The failure, when this is `.failed`.
    public var failure: AnswerFailure? {
        if case .failed(let failure) = self { failure } else { nil }
    }
}
