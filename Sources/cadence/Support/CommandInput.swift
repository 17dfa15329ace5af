import ArgumentParser

/// Checks of what a user typed that are the same for every command: a question worth sending, and
/// a server URL the transports can use. Each failure is a usage error (exit 64) that says what to
/// type, instead of a request the server refuses or a connection that cannot be made.
enum CommandInput {
    /// A question with something in it.
    static func validateQuestion(_ question: String, option: String = "the question") throws {
        if question.allSatisfy(\.isWhitespace) {
            throw ValidationError("\(option) is empty: say what to ask")
        }
    }

    /// A server's base URL: `http://` or `https://` (or `ws://`, `wss://`) and a host.
    static func validateServerURL(_ url: String?, option: String = "--url") throws {
        guard let url else { return }
        let schemes = ["http://", "https://", "ws://", "wss://"]
        guard let scheme = schemes.first(where: { url.lowercased().hasPrefix($0) }),
            let host = url.dropFirst(scheme.count).split(separator: "/", omittingEmptySubsequences: false).first,
            !host.isEmpty
        else {
            throw ValidationError("\(option) \(url) is not a server's URL: give one like http://127.0.0.1:8080")
        }
    }
}
