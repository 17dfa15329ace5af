import CadenceCore

/// Where a server's answers live: started here, read by any connection, resumed by cursor.
///
/// Two implementations sit behind it. ``MemoryAnswerRegistry`` keeps each answer in this process
/// (the default, and the demo's). ``PostgresAnswerRegistry`` keeps every event in PostgreSQL, so
/// that any node behind a load balancer can serve any answer and a node's death is noticed.
/// The routes, ``AnswerFeed`` and the WebSocket handler see only this protocol.
protocol AnswerRegistry: Sendable {
    /// Starts producing an answer owned by `subject` and returns its id. With a conversation id, the
    /// answer is also a message of `subject`'s conversation of that id. Throws ``APIError`` 503 when
    /// this node runs its limit of answers, 429 when `subject` runs its own.
    func start(_ request: AnswerRequest, for subject: String, conversationID: String?) async throws -> String

    /// The message ids of `subject`'s conversation, oldest first, or `nil` for an unknown conversation.
    func messages(in conversationID: String, of subject: String) async throws -> [String]?

    /// Checks that `subject`'s answer exists and its events after `sequence` can be replayed,
    /// throwing ``AnswerLookupError`` if not; another subject's answer is
    /// ``AnswerLookupError/unknown(_:)``, as an id that never existed.
    func check(_ id: String, of subject: String, after sequence: Int) async throws

    /// The events of `subject`'s answer after `sequence` that exist now, without waiting.
    func snapshot(_ id: String, of subject: String, after sequence: Int) async throws -> AnswerSlice

    /// The events after `sequence`, waiting until there is at least one or the answer has ended.
    /// Returns an empty, finished slice at the end; throws if the answer or the events are gone.
    /// With `quiet`, returns an empty slice that is not finished once that long has passed with
    /// nothing to read: time for the reader's keepalive. The quiet time counts from `since`, the
    /// ``AnswerSlice/takenAt`` of the reader's previous slice (what it sent last), or from now.
    func read(_ id: String, after sequence: Int, quietFor quiet: Duration?, since: Duration?) async throws -> AnswerSlice

    /// Cancels `subject`'s answer that is still being produced: its engine stops, a terminal `error`
    /// with code `cancelled` follows the events so far, and nothing is appended after it. Returns
    /// `false` if the answer had already ended.
    func cancel(_ id: String, of subject: String) async throws -> Bool

    /// Stops every engine this node runs and releases what the registry holds.
    func shutdown() async
}

extension AnswerRegistry {
    func start(_ request: AnswerRequest, for subject: String) async throws -> String {
        try await start(request, for: subject, conversationID: nil)
    }
}

/// Events read from an ``AnswerRegistry``; `finished` means no event will follow them.
struct AnswerSlice: Sendable {
    var events: [LoggedEvent]
    var finished: Bool
    /// When the slice was taken, on the registry's clock: a reader's quiet time counts from here.
    var takenAt: Duration = .zero
}

extension AnswerRegistry {
    /// ``read(_:after:quietFor:since:)``, its quiet time counted from now.
    func read(_ id: String, after sequence: Int, quietFor quiet: Duration?) async throws -> AnswerSlice {
        try await read(id, after: sequence, quietFor: quiet, since: nil)
    }
}

extension ResearchEvent.Kind {
    /// How an answer that ends with this event ended; `nil` if it does not end one. An `error`
    /// event's code `cancelled` or `interrupted` names those endings; any other code is a failure.
    ///
    /// The ending holds what the event holds: the answer's text came in the events before it, so
    /// the ending's text is empty. The server counts endings and records their names
    /// (``AnswerEnding/serverLabel``); it never reads their text.
    var ending: AnswerEnding? {
        switch self {
        case .complete(let completion):
            .completed(
                AnswerCompletion(
                    reason: .completed, text: "", sources: completion.sources, followUps: completion.followUps,
                    metadata: completion.metadata))
        case .error("cancelled", _): .cancelled(partialText: "")
        case .error("interrupted", _): .interrupted(partialText: "")
        case .error(let code, let message): .failed(AnswerFailure(.server, message: message, serverCode: code))
        default: nil
        }
    }
}
