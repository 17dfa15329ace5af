/// Where to pick an answer up after a drop: the server's answer id and the last sequence applied.
///
/// Transports take it as it is; for SSE it becomes `GET /v1/answers/{answerID}/events` with
/// `Last-Event-ID: {lastSequence}`.
///
/// ```swift
/// case .connect(let resume):
///     connection = try await transport.open(request, resume: resume)
/// ```
public struct ResumeCursor: Sendable, Hashable {
    public var answerID: String
    /// The highest sequence number applied; the server replays strictly after it.
    public var lastSequence: Int

    public init(answerID: String, lastSequence: Int) {
        self.answerID = answerID
        self.lastSequence = lastSequence
    }
}
