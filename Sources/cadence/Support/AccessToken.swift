import ArgumentParser
import Foundation

/// A research server's access token on the command line: `--token`, else a non-empty
/// `$CADENCE_TOKEN`. The same for `serve` (the token clients must send) and for the clients (`ask`,
/// `chat`, `demo --url`: the token they send).
enum AccessToken {
    /// The token to use: `flag`, else a non-empty `$CADENCE_TOKEN`, else none.
    static func resolve(_ flag: String?) -> String? {
        flag ?? ProcessInfo.processInfo.environment["CADENCE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Refuses an empty `--token`.
    static func validate(_ flag: String?) throws {
        if flag?.isEmpty == true { throw ValidationError("--token must not be empty") }
    }
}
