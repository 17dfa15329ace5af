public import CadenceCore
public import Foundation

/// The captured provider streams in `../shared/fixtures/providers`, beside the repository.
public enum SharedFixtures {
    public static let providers: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/providers")

    /// The bytes a provider sent: `chunks-jsonl` files (one data payload per line) are re-framed as SSE.
    public static func streamBytes(_ file: String) throws -> [UInt8] {
        let data = try Data(contentsOf: providers.appendingPathComponent(file))
        guard let entry = try index().first(where: { $0["file"]?.stringValue == file }) else { return Array(data) }
        if entry["format"]?.stringValue == "chunks-jsonl" {
            let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            return Array(lines.map { "data: \($0)\n\n" }.joined().utf8)
        }
        return Array(data)
    }

    public static func expectedText(_ file: String) throws -> String {
        try index().first(where: { $0["file"]?.stringValue == file })?["expected_text"]?.stringValue ?? ""
    }

    public static func index() throws -> [JSONValue] {
        let data = try Data(contentsOf: providers.appendingPathComponent("index.json"))
        return try JSONValue(parsing: String(decoding: data, as: UTF8.self)).arrayValue ?? []
    }
}
