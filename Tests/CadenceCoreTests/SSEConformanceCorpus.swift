import Foundation
import Testing

/// The shared SSE conformance corpus, `../shared/conformance/sse-public.json` beside the repository.
/// `CADENCE_SHARED_DIR` overrides where the shared folder is.
enum SSEConformanceCorpus {
    static func load() throws -> [SSEConformanceCase] {
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode([SSEConformanceCase].self, from: data)
    }

    static func cases(ofKind kind: String) throws -> [SSEConformanceCase] {
        try load().filter { $0.kind == kind }
    }

    static var url: URL {
        sharedFolder.appendingPathComponent("conformance/sse-public.json")
    }

    /// The folder beside the repository root, found from this file's real location (the test
    /// files may be symbolic links into the repository).
    static var sharedFolder: URL {
        if let override = ProcessInfo.processInfo.environment["CADENCE_SHARED_DIR"] {
            return URL(fileURLWithPath: override)
        }
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent()  // CadenceCoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // the repository
        return root.deletingLastPathComponent().appendingPathComponent("shared")
    }
}

/// One case of the corpus; see `../shared/conformance/README.md` for the fields.
struct SSEConformanceCase: Decodable, Sendable, CustomTestStringConvertible {
    struct Event: Decodable, Sendable {
        var event: String
        var data: String?
        var dataGenerator: Generator.Part?
        var id: String
    }

    struct Generator: Decodable, Sendable {
        struct Part: Decodable, Sendable {
            var text: String?
            var `repeat`: String?
            var pattern: String?
            var count: Int?
        }

        var parts: [Part]
        var chunkSize: Int?
        var splitAt: [Int]?
        var chunking: String?
    }

    struct Connection: Decodable, Sendable {
        var stream: String
        var expected: [Event]
        var requestLastEventId: String?
    }

    var name: String
    var kind: String
    var stream: String?
    var streamHex: String?
    var criticalSplits: [Int]?
    var splitAt: [Int]?
    var expected: [Event]
    var comments: [String]?
    /// A number that may be larger than `Int.max`.
    var retry: Double?
    var lastEventId: String?
    var generator: Generator?
    var connections: [Connection]?

    var testDescription: String { name }

    enum CodingKeys: String, CodingKey {
        case name, kind, stream, expected, comments, retry, generator, connections
        case streamHex = "stream_hex"
        case criticalSplits = "critical_splits"
        case splitAt = "split_at"
        case lastEventId = "last_event_id"
    }
}

extension SSEConformanceCase.Event {
    enum CodingKeys: String, CodingKey {
        case event, data, id
        case dataGenerator = "data_generator"
    }
}

extension SSEConformanceCase.Generator {
    enum CodingKeys: String, CodingKey {
        case parts, chunking
        case chunkSize = "chunk_size"
        case splitAt = "split_at"
    }
}

extension SSEConformanceCase.Connection {
    enum CodingKeys: String, CodingKey {
        case stream, expected
        case requestLastEventId = "request_last_event_id"
    }
}
