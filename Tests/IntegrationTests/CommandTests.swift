import Foundation
import Testing

/// Runs the built `cadence` binary as a subprocess.
struct CadenceBinary {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["CADENCE_BINARY"] { return URL(fileURLWithPath: path) }
        // The test bundle and the executable are built into the same folder.
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("cadence")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/cadence")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

@Suite("The cadence command")
struct CommandTests {
    @Test("demo streams a cited answer with stages and a source list")
    func demo() throws {
        let result = try CadenceBinary.run([
            "demo", "--question", "How does retry with exponential backoff and jitter work?", "--engine-delay-ms", "0",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let out = result.stdout
        #expect(!out.contains("\u{1B}["), "no escape codes when stdout is not a terminal")
        #expect(out.contains("· Searching"))
        #expect(out.contains("Sources"))
        let cited = Set(out.matches(of: /\[(\d+)\]/).map { String($0.1) })
        #expect(cited.contains("1"))
        #expect(out.contains("  [1] "))
    }

    @Test("demo --plain prints only the text and the sources")
    func demoPlain() throws {
        let result = try CadenceBinary.run(["demo", "--plain", "--question", "What is BM25?", "--engine-delay-ms", "0"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("· "))
        #expect(result.stdout.contains("\nSources\n"))
    }

    @Test("decode --events prints one JSON object per dispatched event, at any chunk size", arguments: [nil, 1, 3])
    func decodeEvents(chunkSize: Int?) throws {
        let stream = "retry: 1500\n: keepalive\nevent: token\nid: 7\ndata: {\"a\":\ndata: 1}\n\ndata: x\r\n\r\nid: 9\ndata: tail-without-blank-line"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-decode-\(UUID()).sse")
        try Data(stream.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["decode", "--events", "--comments", file.path]
        if let chunkSize { arguments += ["--chunk-size", String(chunkSize)] }
        let result = try CadenceBinary.run(arguments)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"retry":1500}"#,
                #"{"comment":"keepalive"}"#,
                #"{"event":"token","data":"{\"a\":\n1}","id":"7"}"#,
                #"{"event":"message","data":"x","id":"7"}"#,
            ])
    }

    @Test("decode --events reads standard input")
    func decodeStdin() throws {
        let result = try CadenceBinary.run(["decode", "--events", "-"], stdin: Data("data: hi\n\n".utf8))
        #expect(result.stdout == "{\"event\":\"message\",\"data\":\"hi\",\"id\":\"\"}\n")
    }

    @Test("a decoder error goes to stderr with exit code 1, after the events before it")
    func decodeError() throws {
        let stream = "data: ok\n\ndata: " + String(repeating: "x", count: 200)
        let result = try CadenceBinary.run(
            ["decode", "--events", "--max-line-bytes", "64", "-"], stdin: Data(stream.utf8))
        #expect(result.status == 1)
        #expect(result.stdout == "{\"event\":\"message\",\"data\":\"ok\",\"id\":\"\"}\n")
        #expect(result.stderr.contains("64"))
    }
}
