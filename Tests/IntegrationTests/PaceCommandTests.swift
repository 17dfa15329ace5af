import Foundation
import Testing

/// `cadence pace` on trace files that are not valid traces: one line that says what is wrong and
/// where, instead of Foundation's `DecodingError` dump (coding paths, `CodingKeys`, debug text).
@Suite("cadence pace on malformed traces")
struct PaceCommandTests {
    @Test(
        "a malformed trace is one line naming the file, the place and the problem, with exit status 1",
        arguments: [
            (#"{"name":"t","arrivals":[[0,"a"],[10,"b"],[20]],"end_ms":30}"#, #"arrivals[2]: the chunk is missing"#),
            (#"{"name":"t","arrivals":[[0,"a"],[10,5]],"end_ms":30}"#, #"arrivals[1]: the chunk must be a string"#),
            (#"{"name":"t","arrivals":[["0","a"]],"end_ms":30}"#, #"arrivals[0]: the time must be a number"#),
            (#"{"name":"t","arrivals":[[0,"a","b"]],"end_ms":30}"#, #"arrivals[0]: an arrival is [t_ms, "chunk"]"#),
            (#"{"name":"t","arrivals":[[0,"a"]]}"#, #""end_ms" is missing"#),
            (#"{"name":"t","arrivals":{"0":"a"},"end_ms":30}"#, #""arrivals" must be an array"#),
            (#"{"name":"t","arrivals":[[0,"a"]],"end_ms":30"#, "not valid JSON"),
            ("[]", "must be a JSON object"),
        ])
    func malformedTrace(json: String, says: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await CadenceBinary.run(["pace", "--trace", file.path])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains(file.path), "names the file: \(result.stderr)")
        #expect(result.stderr.contains(says), "says \(says): \(result.stderr)")
        for leak in ["DecodingError", "CodingKeys", "codingPath", "debugDescription", "Swift."] {
            #expect(!result.stderr.contains(leak), "no Swift internals: \(result.stderr)")
        }
    }

    @Test("a valid trace still replays")
    func validTrace() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json")
        try Data(#"{"name":"t","arrivals":[[0,"Hello "],[40,"world"]],"end_ms":60}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await CadenceBinary.run(["pace", "--trace", file.path, "--mode", "instant"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(#""frames""#))
    }

    @Test("a trace from standard input replays like the same trace from a file")
    func traceFromStandardInput() async throws {
        let json = #"{"name":"t","arrivals":[[0,"Hello "],[40,"world"]],"end_ms":60}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let piped = try await CadenceBinary.run(["pace", "--trace", "-"], stdin: Data(json.utf8))
        let read = try await CadenceBinary.run(["pace", "--trace", file.path])
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        #expect(piped.stdout == read.stdout)
        #expect(piped.stdout.contains(#""frames""#))
    }

    @Test("a trace that cannot be read says why in the system's words, with exit status 1")
    func unreadableTrace() async throws {
        let missing = "/nonexistent-\(UUID().uuidString).json"
        let result = try await CadenceBinary.run(["pace", "--trace", missing])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        // Foundation said "The operation could not be completed. The file doesn't exist."
        #expect(result.stderr.contains("cannot read \(missing): No such file or directory"), "stderr: \(result.stderr)")
        let folder = try await CadenceBinary.run(["pace", "--trace", FileManager.default.temporaryDirectory.path])
        #expect(folder.status == 1)
        #expect(folder.stderr.contains("Is a directory"), "stderr: \(folder.stderr)")
    }
}
