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
}
