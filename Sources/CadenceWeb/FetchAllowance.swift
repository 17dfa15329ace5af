/// A `host:port` the fetch guard lets through although its address is refused, named with
/// `--fetch-allow HOST:PORT`: a self-hosted service on this machine or the local network that
/// research may read (and the loopback servers of tests).
///
/// A fetch is allowed when either the URL's host and port or the address it resolved to and the
/// port match. Hosts compare in lowercase, and an address in any spelling as its usual form.
///
/// ```swift
/// FetchAllowance("127.0.0.1:8080")   // host 127.0.0.1, port 8080
/// FetchAllowance("[::1]:8080")       // host ::1
/// FetchAllowance("localhost")        // nil: the port is required
/// ```
public struct FetchAllowance: Sendable, Hashable, CustomStringConvertible {
    /// The host in its compared form: lowercase, an address without brackets in its usual form.
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = Self.normalized(host)
        self.port = port
    }

    /// Reads `HOST:PORT` (an IPv6 host in brackets); `nil` when it is not of that form.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        let host = String(text[..<colon])
        guard !host.isEmpty, host.hasPrefix("[") || !host.contains(":"), HostSpelling.classify(host) != .invalid
        else { return nil }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The compared form of a host.
    static func normalized(_ host: String) -> String {
        switch HostSpelling.classify(host) {
        case .address(let address): return address.description
        case .domain(let name): return name
        case .invalid: return host.lowercased()
        }
    }
}
