public import CadenceCore

/// One model answer as `AnswerUpdate`s: the provider counterpart of ``AnswerStream``, and the one
/// path by which a model's answers reach the command and the view models.
///
/// It reads the provider's normalized events (``ModelClient/stream(_:options:)``, choice 0) as they
/// arrive and turns them into the updates every consumer of answers knows: the text as it streams,
/// then exactly one terminal update that carries everything received:
///
/// | the provider's stream… | ends as |
/// |---|---|
/// | finished (`stop`, the token limit, a tool call, a filter …) | `AnswerUpdate/completed(_:)`, with `AnswerCompletion/finishReason` |
/// | was refused (an HTTP error), or sent an error event | `AnswerUpdate/failed(_:)`, code `AnswerFailure/Code/connection` |
/// | stopped before the provider's terminator | `AnswerUpdate/failed(_:)`, code `AnswerFailure/Code/interrupted` |
/// | was cancelled (the iterating task) | `AnswerUpdate/cancelled(partialText:)` |
///
/// Provider APIs cannot resume, so nothing is retried here. Reasoning text is not part of the answer;
/// give ``ModelClient/answer(_:options:reasoning:)`` a `reasoning` handler to show it. The handler is
/// called inside `next()`, so reasoning and text reach the reader in the order the model sent them.
///
/// ```swift
/// let answer = ModelClient(provider: provider).answer([ChatTurn(role: "user", content: "Hello")])
/// for await update in answer {
///     switch update {
///     case .textAppended(let text): print(text, terminator: "")
///     case .failed(let failure): print("\nfailed: \(failure.message)")
///     default: break
///     }
/// }
/// ```
public struct ModelAnswerStream: AsyncSequence, Sendable {
    public typealias Element = AnswerUpdate
    public typealias Failure = Never

    let events: ModelEventStream
    let reasoning: (@Sendable (String) -> Void)?

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events.makeAsyncIterator(), reasoning: reasoning)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        var events: ModelEventStream.AsyncIterator
        let reasoning: (@Sendable (String) -> Void)?
        var text = ""
        /// The provider's error message, from an error event or a refused request.
        var failure: String?
        /// The decoder limit the stream broke, when that was the failure.
        var exceededLimit: SSEDecoderError.Code?
        var finish: FinishReason?
        var ended = false

        public mutating func next() async -> AnswerUpdate? {
            guard !ended else { return nil }
            do {
                while let event = try await events.next() {
                    switch event {
                    case .text(let delta, 0), .refusal(let delta, 0):
                        text += delta
                        return .textAppended(delta)
                    case .reasoning(let delta, 0):
                        reasoning?(delta)
                    case .finish(let reason, 0):
                        finish = reason
                    case .error(let error):
                        failure = error.message
                    default:
                        break
                    }
                }
            } catch is CancellationError {
                return end(.cancelled(partialText: text))
            } catch let error as CadenceClientError {
                failure = error.message
                exceededLimit = error.exceededLimit
            } catch {
                failure = "\(error)"
            }
            return end(ending)
        }

        /// The terminal update for a stream that ended by itself.
        private var ending: AnswerUpdate {
            if Task.isCancelled { return .cancelled(partialText: text) }
            if let failure {
                return .failed(
                    AnswerFailure(.connection, message: failure, partialText: text, exceededLimit: exceededLimit))
            }
            if finish == .truncated {
                let message = "the stream ended before the provider finished (\(text.count) characters received)"
                return .failed(AnswerFailure(.interrupted, message: message, partialText: text))
            }
            return .completed(AnswerCompletion(reason: .completed, text: text, finishReason: finish))
        }

        private mutating func end(_ update: AnswerUpdate) -> AnswerUpdate {
            ended = true
            return update
        }
    }
}
