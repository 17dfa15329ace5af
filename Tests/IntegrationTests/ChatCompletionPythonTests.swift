import CadenceCore
import CadenceServer
import CadenceTestFixtures
import Foundation
import Testing

/// The official `openai` Python package against the front door: what an app's backend code would
/// run. `.ci/run` installs it from PyPI into `.build/openai-venv`; elsewhere these tests run when
/// that virtual environment (or `CADENCE_OPENAI_PYTHON`) exists, and in CI (`CI=true`) always, so a
/// failed install fails CI instead of skipping them.
@Suite(
    "The openai Python package against the front door", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: OpenAIPython.interpreter != nil || RealServers.inCI, Comment(rawValue: OpenAIPython.unavailableReason)))
struct ChatCompletionPythonTests {
    @Test("streaming, with and without include_usage, and non-streaming: the text equals the answer's", arguments: ["stream", "usage", "single"])
    func text(mode: String) async throws {
        try await withServer(engine: instantEngine) { server in
            let result = try await OpenAIPython.run(server, mode: mode, question: transportQuestion.query)
            #expect(result["error"] == nil, "\(result)")
            let id = try #require(result["id"]?.stringValue?.replacingOccurrences(of: "chatcmpl-", with: ""))
            let (text, _) = try await ChatClient.answerText(server, id)
            #expect(text.count > 200)
            #expect(result["text"]?.stringValue == text)
            #expect(result["finish_reason"]?.stringValue == "stop")
        }
    }

    @Test("reasoning, the finish reason and usage reach the package's objects", arguments: ["stream", "usage", "single"])
    func details(mode: String) async throws {
        try await withServer(engine: ChatCompletionTests.engine) { server in
            let result = try await OpenAIPython.run(server, mode: mode, question: "Hi")
            #expect(result["text"]?.stringValue == "Grüße aus 🎉 Köln")
            #expect(result["reasoning"]?.stringValue == "Thinking about Köln.")
            #expect(result["finish_reason"]?.stringValue == "tool_calls")
            #expect(result["tool_calls"] == ["weather"])
            let usage: JSONValue = ["prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17]
            #expect(result["usage"] == (mode == "stream" ? .null : usage))
        }
    }

    @Test("an error mid-stream raises openai.APIError with the message and code, after the text so far")
    func errorMidStream() async throws {
        let engine = ListedEngine(kinds: [.token("partial "), .error(code: "model_error", message: "the model broke")])
        try await withServer(engine: engine) { server in
            let result = try await OpenAIPython.run(server, mode: "stream", question: "Hi")
            #expect(result["text"]?.stringValue == "partial ")
            #expect(result["error"] == ["class": "APIError", "message": "the model broke", "code": "model_error", "type": "server_error"])
        }
    }
}

/// The Python interpreter with `openai` installed, and a script that drives it.
enum OpenAIPython {
    /// `CADENCE_OPENAI_PYTHON`, or the virtual environment `.ci/run` makes, if it exists.
    static let interpreter: String? = {
        if let path = ProcessInfo.processInfo.environment["CADENCE_OPENAI_PYTHON"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/openai-venv/bin/python").path
        return access(venv, X_OK) == 0 ? venv : nil
    }()

    static let unavailableReason =
        "the openai Python package is not installed: .ci/run installs it into .build/openai-venv "
        + "(or set CADENCE_OPENAI_PYTHON to a python that has it)"

    /// Asks the server one question through `OpenAI(base_url=…/v1)` and returns what the package
    /// gave: `id`, `text`, `reasoning`, `finish_reason`, `usage`, `tool_calls` (names), or `error`.
    /// `mode` is `stream`, `usage` (streaming with `include_usage`) or `single`.
    static func run(_ server: RunningServer, mode: String, question: String) async throws -> JSONValue {
        guard let python = interpreter, access(python, X_OK) == 0 else {
            throw TestFailure("no python at \(interpreter ?? "(none)"): " + unavailableReason)
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("openai-client-\(UUID()).py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let (status, output, errors) = try await runProcess(python, [script.path, server.baseURL + "/v1", mode, question])
        guard status == 0 else {
            throw TestFailure("python exited \(status): \(errors)\(errors.contains("No module named 'openai'") ? "\n" + unavailableReason : "")")
        }
        return try JSONValue(parsing: output)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program to its end on a thread of its own, returning its status and output.
    private static func runProcess(_ executable: String, _ arguments: [String]) async throws -> (Int32, String, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let (output, errors) = (Pipe(), Pipe())
                process.standardOutput = output
                process.standardError = errors
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let out = output.fileHandleForReading.readDataToEndOfFile()
                let err = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (
                    process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
                ))
            }
        }
    }

    /// The client: `python script.py BASE_URL MODE QUESTION`, printing one JSON object.
    static let script = #"""
        import json, sys
        import openai
        from openai import OpenAI

        base_url, mode, question = sys.argv[1:4]
        client = OpenAI(base_url=base_url, api_key="x", max_retries=0, timeout=30)
        messages = [{"role": "user", "content": question}]

        def usage_of(usage):
            if usage is None:
                return None
            return {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                    "total_tokens": usage.total_tokens}

        result = {"text": "", "reasoning": "", "tool_calls": [], "usage": None, "finish_reason": None}
        try:
            if mode == "single":
                completion = client.chat.completions.create(model="test-model", messages=messages)
                message = completion.choices[0].message
                result.update(id=completion.id, text=message.content or "",
                              reasoning=getattr(message, "reasoning_content", None) or "",
                              tool_calls=[call.function.name for call in message.tool_calls or []],
                              usage=usage_of(completion.usage), finish_reason=completion.choices[0].finish_reason)
            else:
                options = {"stream_options": {"include_usage": True}} if mode == "usage" else {}
                for chunk in client.chat.completions.create(model="test-model", messages=messages, stream=True, **options):
                    result["id"] = chunk.id
                    if chunk.usage is not None:
                        result["usage"] = usage_of(chunk.usage)
                    for choice in chunk.choices:
                        result["text"] += choice.delta.content or ""
                        result["reasoning"] += getattr(choice.delta, "reasoning_content", None) or ""
                        result["tool_calls"] += [call.function.name for call in choice.delta.tool_calls or []]
                        if choice.finish_reason:
                            result["finish_reason"] = choice.finish_reason
        except openai.APIError as error:
            result["error"] = {"class": type(error).__name__, "message": error.message, "code": error.code,
                               "type": error.type}
        print(json.dumps(result))
        """#
}
