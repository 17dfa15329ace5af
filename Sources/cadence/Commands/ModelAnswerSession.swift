import ArgumentParser
import CadenceClient
import CadenceCore

/// Streams one model answer to the terminal; the provider counterpart of ``AnswerSession``.
enum ModelAnswerSession {
    /// Streams the answer, dimming the model's reasoning on a terminal, and saves it; Ctrl-C
    /// cancels it. Returns what was printed and how the answer ended.
    static func run(
        client: ModelClient, turns: [ChatTurn], output: TerminalOutput, recording: AnswerRecording? = nil
    ) async throws -> PrintedAnswer {
        let (streamed, interrupted) = try await Interrupt.cancellable { [recording] in
            var recording = recording
            var text = ""
            var reasoningShown = false
            var failure: String?
            var finish: FinishReason?
            do {
                for try await event in client.stream(turns) {
                    switch event {
                    case .text(let delta, 0), .refusal(let delta, 0):
                        if reasoningShown, text.isEmpty { output.write("\n\n") }
                        await recording?.record(.textAppended(delta))
                        text += delta
                        output.write(delta)
                    case .reasoning(let delta, 0) where output.styled:
                        reasoningShown = true
                        output.write(output.dim(delta))
                    case .finish(let reason, 0):
                        finish = reason
                    case .error(let error):
                        failure = error.message
                    default:
                        break
                    }
                }
            } catch let error as CadenceClientError {
                failure = error.message
            } catch is CancellationError {
            }
            return (recording, text, failure, finish)
        }
        var (recording, text, failure, finish) = streamed
        if !text.isEmpty, !text.hasSuffix("\n") { output.line() }
        if failure == nil, let finish, finish != .stop {
            switch finish {
            case .truncated: failure = "the stream ended before the provider finished (\(text.count) characters received)"
            case .length: TerminalOutput.error("note: the answer was cut at the token limit")
            case .toolCalls: TerminalOutput.error("note: the model asked to call a tool; cadence does not run tools")
            default: TerminalOutput.error("note: the answer ended with reason \(finish.name)")
            }
        }
        let ending: AnswerUpdate
        if interrupted, finish != .stop {
            ending = .cancelled(partialText: text)
        } else if let failure {
            ending = .failed(AnswerFailure(.connection, message: failure, partialText: text))
        } else {
            ending = .completed(AnswerCompletion(reason: .completed, text: text))
        }
        await recording?.record(ending)
        return PrintedAnswer(text: text, ending: AnswerEnding(ending) ?? .completed)
    }
}

extension ModelAnswerSession {
    /// A model's answer as ``AnswerUpdate``s, the form the view models and `--json` take: text as
    /// it streams, then completed, failed or cancelled with everything received.
    static func updates(client: ModelClient, turns: [ChatTurn]) -> AsyncStream<AnswerUpdate> {
        AsyncStream { continuation in
            let task = Task {
                var text = ""
                var failure: String?
                var finish: FinishReason?
                do {
                    for try await event in client.stream(turns) {
                        switch event {
                        case .text(let delta, 0), .refusal(let delta, 0):
                            text += delta
                            continuation.yield(.textAppended(delta))
                        case .finish(let reason, 0):
                            finish = reason
                        case .error(let error):
                            failure = error.message
                        default:
                            break
                        }
                    }
                } catch is CancellationError {
                    failure = nil
                    finish = nil
                    continuation.yield(.cancelled(partialText: text))
                    continuation.finish()
                    return
                } catch let error as CadenceClientError {
                    failure = error.message
                } catch {
                    failure = "\(error)"
                }
                if Task.isCancelled {
                    continuation.yield(.cancelled(partialText: text))
                } else if let failure {
                    continuation.yield(.failed(AnswerFailure(.connection, message: failure, partialText: text)))
                } else if finish == .truncated {
                    let message = "the stream ended before the provider finished (\(text.count) characters received)"
                    continuation.yield(.failed(AnswerFailure(.interrupted, message: message, partialText: text)))
                } else {
                    continuation.yield(.completed(AnswerCompletion(reason: .completed, text: text)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
