import Hummingbird
import HummingbirdWSClient
import Logging

/// A WebSocket client that sends exactly the text it is given, for opening messages
/// `WebSocketTransport` would never write (a cursor of the wrong type, say).
enum RawWebSocket {
    /// Connects to the server's `/v1/answers/ws`, sends `opening`, and returns every text message
    /// the server sent until it closed, and whether it closed normally (code 1000). An
    /// `authorization` goes in the upgrade request's `Authorization` header.
    static func exchange(
        baseURL: String, opening: String, authorization: String? = nil
    ) async throws -> (messages: [String], closedNormally: Bool) {
        let url = "ws://" + baseURL.dropFirst("http://".count) + "/v1/answers/ws"
        let collected = MessageBox()
        var headers = HTTPFields()
        if let authorization { headers[.authorization] = authorization }
        let close = try await WebSocketClient.connect(
            url: url, configuration: WebSocketClientConfiguration(additionalHeaders: headers),
            logger: Logger(label: "raw-websocket")
        ) {
            inbound, outbound, _ in
            try await outbound.write(.text(opening))
            for try await message in inbound.messages(maxSize: 1 << 20) {
                if case .text(let text) = message { await collected.append(text) }
            }
        }
        return (await collected.messages, close?.closeCode == .normalClosure)
    }

    private actor MessageBox {
        var messages: [String] = []
        func append(_ message: String) { messages.append(message) }
    }
}
