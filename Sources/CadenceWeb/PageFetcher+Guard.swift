import Foundation

/// A URL the fetch guard passed: the host as the HTTP client reads it, and the address to connect to.
struct CheckedTarget: Sendable {
    /// The URL's host as AsyncHTTPClient reads it (`URL.host`, brackets removed): the key of its
    /// `dnsOverride`, so that the client connects to one of ``addresses`` and never looks the name up.
    let clientHost: String
    /// The host in its compared form, for the per-host limit.
    let host: String
    /// The checked addresses, in the order to try them (a few at most).
    let addresses: [IPAddress]
}

extension PageFetcher {
    /// Checks `url` with the fetch guard and returns the address to connect to; throws a refusal.
    func checkedTarget(_ url: URL) async throws -> CheckedTarget {
        let text = url.absoluteString
        guard let scheme = url.scheme?.lowercased() else {
            throw PageFetchError(code: .invalidURL, url: text, message: "not an absolute URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw PageFetchError(code: .unsupportedScheme, url: text, message: "only http and https pages are read")
        }
        guard let rawHost = url.host, !rawHost.isEmpty else {
            throw PageFetchError(code: .invalidURL, url: text, message: "the URL has no host")
        }
        let clientHost =
            rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let addresses: [IPAddress]
        let host: String
        switch HostSpelling.classify(clientHost) {
        case .invalid:
            throw PageFetchError(code: .invalidURL, url: text, message: "\(rawHost) is neither a valid address nor a name")
        case .address(let address):
            addresses = [address]
            host = address.description
        case .domain(let name):
            host = name
            do {
                addresses = try await resolver.addresses(of: name)
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                throw PageFetchError(code: .unresolvableHost, url: text, message: "cannot resolve \(name): \(error)")
            }
        }
        guard !addresses.isEmpty else {
            throw PageFetchError(code: .unresolvableHost, url: text, message: "\(host) has no address")
        }
        // Every address is checked, not only the one connected to: a name that also resolves
        // inside the network is refused whole.
        for candidate in addresses where !policy.allows(host: host, address: candidate, port: port) {
            if let reason = AddressGuard.refusal(for: candidate) {
                let via = candidate.description == host ? "" : " (\(host) resolves to it)"
                throw PageFetchError(
                    code: .refusedAddress, url: text,
                    message: "\(candidate) is \(reason)\(via); --fetch-allow \(FetchAllowance(host: host, port: port)) "
                        + "would allow it")
            }
        }
        return CheckedTarget(clientHost: clientHost, host: host, addresses: Array(addresses.prefix(4)))
    }
}
