import CadenceCore
import HummingbirdWSClient

/// What one WebSocket connection delivers: first the id the server gave the answer, then items.
enum WebSocketArrival: Sendable {
    case answerID(String)
    case item(TransportItem)
}

/// Reads the server's WebSocket messages and turns WebSocket failures into ``CadenceClientError``s.
enum WebSocketMessages {
    static let closedBeforeAnswer = CadenceClientError(
        .transport, message: "the WebSocket closed before the server named the answer", retryable: true)

    /// The answer's id in the first message, an item in any later one.
    static func arrival(in text: String, first: Bool) throws -> WebSocketArrival {
        first ? .answerID(try answerID(in: text)) : .item(try item(in: text))
    }

    /// The `answer_id` of the first message, or the server's refusal as an error with its status.
    static func answerID(in text: String) throws -> String {
        let json = try parse(text)
        if let error = json["error"] {
            let status = error["status"]?.intValue ?? 400
            throw CadenceClientError.httpStatus(
                status, reason: error["code"]?.stringValue ?? "error", body: JSONValue.object(["error": error]).jsonText,
                retryAfter: nil)
        }
        guard let id = json["answer_id"]?.stringValue else {
            throw CadenceClientError(.malformedEvent, message: "the first WebSocket message has no \"answer_id\": \(text.prefix(200))")
        }
        return id
    }

    /// An event, or a keepalive for `{"type":"keepalive"}`.
    static func item(in text: String) throws -> TransportItem {
        let json = try parse(text)
        if json["type"]?.stringValue == "keepalive" { return .keepalive }
        do {
            return .event(try ResearchEvent(json: json))
        } catch {
            throw CadenceClientError(.malformedEvent, message: error.description, underlying: error)
        }
    }

    /// `nil` for a normal close; an error for anything else, including a connection that dropped
    /// without a close frame.
    static func closeError(_ close: WebSocketCloseFrame?) -> CadenceClientError? {
        guard let close else {
            return CadenceClientError(.transport, message: "the WebSocket connection dropped without closing", retryable: true)
        }
        if close.closeCode == .normalClosure { return nil }
        return CadenceClientError(
            .transport, message: "the server closed the WebSocket with \(close.closeCode): \(close.reason ?? "")",
            retryable: true)
    }

    static func clientError(_ error: any Error) -> any Error {
        switch error {
        case is CadenceClientError, is CancellationError: error
        case let error as WebSocketClientError where error == .webSocketUpgradeFailed:
            CadenceClientError(
                .transport, message: "the server refused the WebSocket upgrade: \(error)", retryable: false,
                underlying: error)
        default:
            CadenceClientError(
                .transport, message: "the WebSocket failed: \(SystemErrorText.describe(error))", retryable: true,
                underlying: error)
        }
    }

    private static func parse(_ text: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw CadenceClientError(.malformedEvent, message: "a WebSocket message is not JSON: \(error)", underlying: error)
        }
    }
}
