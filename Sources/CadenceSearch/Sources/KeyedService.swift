/// A hosted search API reached with a key of the user's (Brave, Tavily): where its requests go, the
/// key, and the client that sends them.
struct KeyedService: Sendable {
    /// The API's base URL, ending in `/`.
    let baseURL: String
    let apiKey: String
    let http: SearchHTTP

    /// The service at `baseURL`, or at `publicBaseURL` when that is `nil`.
    init(apiKey: String, baseURL: String?, publicBaseURL: String, http: SearchHTTP) {
        self.apiKey = apiKey
        self.baseURL = SearchSourceChoice.withSlash(baseURL ?? publicBaseURL)
        self.http = http
    }
}
