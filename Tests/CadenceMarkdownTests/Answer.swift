import Foundation
import Testing

/// A long model-style answer from `Fixtures/Answers`, used by the differential tests.
struct Answer: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String

    var testDescription: String { name }

    static let all: [Answer] = {
        let directory = Fixtures.directory.appendingPathComponent("Answers")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                return nil
            }
            return Answer(name: name, text: text)
        }
    }()
}

/// Runs the `cmark-gfm` binary with every GFM extension, if it is installed.
enum CMarkGFM {
    static let path: String? = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm", "/opt/homebrew/bin/cmark-gfm"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { path != nil }

    static func render(_ markdown: String) throws -> String {
        guard let path else { return "" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter", "-e", "tasklist",
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
