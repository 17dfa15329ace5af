/// A page that was not read: refused by the policy or failed on the way. Research skips the page
/// and goes on; nothing here is fatal.
///
/// ```swift
/// do { _ = try await PageFetcher().fetch(URL(string: "http://169.254.169.254/")!) }
/// catch { print(error) }
/// // "refused http://169.254.169.254/: 169.254.169.254 is link-local, cloud metadata (169.254.0.0/16)…"
/// ```
public struct PageFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    /// The URL that failed: the one asked for, or the redirect that was refused.
    public var url: String
    /// What happened, for people.
    public var message: String

    public var description: String { "\(code.verb) \(url): \(message)" }

    /// What kind of failure it was.
    public enum Code: Sendable, Hashable {
        /// The URL cannot be read as an absolute URL with a host.
        case invalidURL
        /// Not `http` or `https`.
        case unsupportedScheme
        /// The fetch guard refused the address (``AddressGuard``).
        case refusedAddress
        /// The host name has no address.
        case unresolvableHost
        /// More redirects than ``FetchPolicy/maxRedirects``.
        case tooManyRedirects
        /// A body longer than ``FetchPolicy/maxBytes``.
        case tooLarge
        /// A media type not in ``FetchPolicy/mediaTypes``.
        case unsupportedContentType
        /// A status other than success or a redirect.
        case httpStatus(Int)
        /// Longer than ``FetchPolicy/pageTimeout``.
        case timedOut
        /// The connection failed or broke.
        case transport
        /// The task that asked was cancelled.
        case cancelled

        var verb: String {
            switch self {
            case .refusedAddress, .unsupportedScheme, .unsupportedContentType, .tooLarge, .tooManyRedirects:
                return "refused"
            default: return "could not fetch"
            }
        }
    }
}
