import ArgumentParser
import CadenceServer

/// Which web pages may use `cadence serve` from a browser, and under which names clients may reach
/// it (docs/protocol.md, "Browsers").
struct BrowserOptions: ParsableArguments {
    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "A web page origin allowed to use the server from a browser, as https://app.example.com (repeatable).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("public-host"),
        help: ArgumentHelp(
            "A name clients may give in Host besides the bound address and localhost (repeatable).",
            valueName: "name"))
    var publicHosts: [String] = []

    func validate() throws {
        for origin in corsOrigins {
            do {
                _ = try BrowserPolicy.normalizedOrigin(origin)
            } catch {
                throw ValidationError("--cors-origin: \(error.message)")
            }
        }
        if let empty = publicHosts.first(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw ValidationError("--public-host needs a name, not \"\(empty)\"")
        }
    }

    /// Sets the allowed origins and public names of `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        configuration.corsOrigins = corsOrigins
        configuration.publicHosts = publicHosts
    }
}
