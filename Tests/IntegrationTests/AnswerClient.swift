import AsyncHTTPClient
import CadenceCore
import CadenceTestFixtures
import NIOCore

/// What one SSE connection to a node delivered, read as raw bytes and decoded the way a client
/// would, so a test can cut it anywhere (mid-event included) and know exactly what was applied.
struct AnswerConnection: Sendable {
    enum Ending: Sendable, Equatable {
        /// The server ended the stream.
        case serverClosed
        /// The test stopped reading (and dropped the connection).
        case stoppedByTest
        /// The connection broke (reset, cut by a proxy, the node died).
        case broken(String)
    }

    var answerID: String
    /// The bytes read, up to the cut when the test cut the stream.
    var bytes: [UInt8] = []
    /// The sequenced events those bytes completed, in order (keepalives and `: flush-tokens` left out).
    var events: [ResearchEvent] = []
    var ending: Ending = .stoppedByTest

    var sequences: [Int] { events.compactMap(\.sequence) }
    /// The last sequence fully received: what a client sends as `Last-Event-ID` to resume.
    var lastSequence: Int { sequences.last ?? 0 }
    var text: String {
        events.reduce(into: "") { text, event in
            if case .token(let token) = event.kind { text += token }
        }
    }
    var endsWithComplete: Bool {
        if case .complete = events.last?.kind { true } else { false }
    }
    /// The code of a final `error` event, if the answer ended with one.
    var errorCode: String? {
        if case .error(let code, _) = events.last?.kind { code } else { nil }
    }
    var tokenCount: Int {
        events.count { if case .token = $0.kind { true } else { false } }
    }
}

/// Reads answers from a `cadence serve` node over real sockets, as raw SSE.
enum AnswerClient {
    /// When the test stops reading.
    enum Stop: Sendable {
        case never
        /// After exactly this many bytes (the rest of the chunk is discarded, as if the connection
        /// broke there).
        case afterBytes(Int)
        /// As soon as the connection so far satisfies this.
        case when(@Sendable (AnswerConnection) -> Bool)
    }

    /// Every read is bounded by this, so a stream that never ends fails its test.
    static let deadline: Duration = .seconds(60)

    /// Room for a connection per concurrent answer: `HTTPClient.shared` keeps 8 per host and queues
    /// the rest, and a queued request's head timeout runs while it waits (the live-cut test asks 32
    /// answers of one node at once; under load, one waited more than 10 s and failed).
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// `POST /v1/answers` to `node`, read until `stop` (or the end).
    static func ask(
        _ node: String, query: String, stop: Stop = .never,
        progress: @escaping @Sendable (AnswerConnection) -> Void = { _ in }
    ) async throws -> AnswerConnection {
        var request = HTTPClientRequest(url: node + "/v1/answers")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"query":"\#(query)"}"#))
        return try await read(request, answerID: nil, stop: stop, progress: progress)
    }

    /// `GET /v1/answers/ID/events` with `Last-Event-ID: after` on `node`, read until `stop` (or the end).
    static func resume(
        _ node: String, answerID: String, after: Int, stop: Stop = .never,
        progress: @escaping @Sendable (AnswerConnection) -> Void = { _ in }
    ) async throws -> AnswerConnection {
        var request = HTTPClientRequest(url: node + "/v1/answers/\(answerID)/events")
        request.headers.add(name: "Last-Event-ID", value: String(after))
        return try await read(request, answerID: answerID, stop: stop, progress: progress)
    }

    private static func read(
        _ request: HTTPClientRequest, answerID: String?, stop: Stop,
        progress: @escaping @Sendable (AnswerConnection) -> Void
    ) async throws -> AnswerConnection {
        try await withDeadline(deadline, "\(request.method) \(request.url) to end") {
            let response = try await client.execute(request, timeout: .seconds(30))
            guard response.status == .ok else {
                let body = String(buffer: (try? await response.body.collect(upTo: 1 << 16)) ?? ByteBuffer())
                throw AnswerRefused(status: Int(response.status.code), body: body)
            }
            let id = answerID ?? response.headers.first(name: "Cadence-Answer-ID") ?? ""
            var connection = AnswerConnection(answerID: id)
            var decoder = SSEDecoder()
            do {
                for try await buffer in response.body {
                    var bytes = Array(buffer.readableBytesView)
                    if case .afterBytes(let limit) = stop {
                        bytes = Array(bytes.prefix(limit - connection.bytes.count))
                    }
                    connection.bytes += bytes
                    for item in try decoder.feed(bytes) {
                        if let event = try ResearchEventDecoder.decode(item), event.sequence != nil {
                            connection.events.append(event)
                        }
                    }
                    progress(connection)
                    switch stop {
                    case .never: break
                    case .afterBytes(let limit): if connection.bytes.count >= limit { return connection }
                    case .when(let condition): if condition(connection) { return connection }
                    }
                }
                connection.ending = .serverClosed
            } catch let error as SSEDecoderError {
                throw error
            } catch let error as ResearchDecodingError {
                throw error
            } catch {
                connection.ending = .broken("\(error)")
            }
            progress(connection)
            return connection
        }
    }
}

/// A node answered with something other than 200.
struct AnswerRefused: Error, CustomStringConvertible {
    var status: Int
    var body: String
    var description: String { "HTTP \(status): \(body)" }
}
