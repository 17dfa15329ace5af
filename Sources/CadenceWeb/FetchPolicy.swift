/// The limits of reading a page: what ``PageFetcher`` fetches and what it refuses.
///
/// The defaults are the limits research reads pages with: `http` and `https` only, at most 5
/// redirects, 2 MB and 10 s per page, only `text/html`, `application/xhtml+xml` and `text/plain`,
/// 2 connections per host, and no address the fetch guard refuses (``AddressGuard``) unless
/// `--fetch-allow` names it (``allowed``).
///
/// ```swift
/// var policy = FetchPolicy(allowing: [FetchAllowance("127.0.0.1:8888")!])
/// policy.maxBytes = 512 << 10
/// let fetcher = PageFetcher(policy: policy)
/// ```
public struct FetchPolicy: Sendable, Hashable {
    /// The `host:port` pairs fetched even though their address is refused.
    public var allowed: Set<FetchAllowance>
    /// The most redirects followed from one URL; each is checked like the first request.
    public var maxRedirects = 5
    /// The most bytes of body read from one page; a longer page is refused.
    public var maxBytes = 2 << 20
    /// The longest one page (resolution, redirects and body) may take.
    public var pageTimeout: Duration = .seconds(10)
    /// The media types read, lowercase.
    public var mediaTypes: Set<String> = ["text/html", "application/xhtml+xml", "text/plain"]
    /// The most pages fetched from one host at a time; more wait for a turn.
    public var connectionsPerHost = 2

    public init(allowing allowed: [FetchAllowance] = []) {
        self.allowed = Set(allowed)
    }

    /// Whether `host:port` or `address:port` is allowed by name.
    func allows(host: String, address: IPAddress, port: Int) -> Bool {
        allowed.contains(FetchAllowance(host: host, port: port))
            || allowed.contains(FetchAllowance(host: address.description, port: port))
    }
}
