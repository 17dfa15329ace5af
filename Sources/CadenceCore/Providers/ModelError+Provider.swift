extension ModelError {
    /// The error for an HTTP error response, with the provider's message when its body says one.
    ///
    /// Reads the error bodies of OpenAI (`{"error":{"message","type","code"}}`), Anthropic
    /// (`{"type":"error","error":{"type","message"}}`), Gemini (`{"error":{"code","message","status"}}`,
    /// possibly wrapped in an array) and Ollama (`{"error":"…"}`). Any other body is quoted, shortened.
    /// `retryable` comes from the status (see ``ConnectionFailure/isRetryable(status:)``).
    ///
    /// ```swift
    /// let body = #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
    /// let error = ModelError(httpStatus: 529, body: Array(body.utf8))
    /// error.code     // "overloaded_error"
    /// error.message  // "Overloaded"
    /// ```
    public init(httpStatus: Int, body: some Collection<UInt8>) {
        let text = String(decoding: body, as: UTF8.self)
        if let json = try? JSONTextParser.parse(text), let error = ModelError(providerJSON: json) {
            self = error
            self.status = httpStatus
            self.retryable = ConnectionFailure.isRetryable(status: httpStatus)
            return
        }
        let quoted = text.trimmedWhitespace.clipped(to: 500)
        self.init(
            code: Self.httpStatus,
            message: quoted.isEmpty ? "HTTP status \(httpStatus)" : "HTTP status \(httpStatus): \(quoted)",
            retryable: ConnectionFailure.isRetryable(status: httpStatus),
            status: httpStatus
        )
    }

    /// The provider's error message in an HTTP error body, or `nil` when the body is not one of the
    /// known error shapes (see ``init(httpStatus:body:)``).
    ///
    /// ```swift
    /// ModelError.providerMessage(inErrorBody: Array(#"{"error":"model not found"}"#.utf8))  // "model not found"
    /// ```
    public static func providerMessage(inErrorBody body: some Collection<UInt8>) -> String? {
        guard let json = try? JSONTextParser.parse(String(decoding: body, as: UTF8.self)) else { return nil }
        return ModelError(providerJSON: json)?.message
    }

    /// Reads an error object of any provider, or returns `nil` when `json` is not an error.
    ///
    /// `retryable` is set from the numeric code when it looks like an HTTP status, else from the code.
    init?(providerJSON json: JSONValue) {
        if case .array(let elements) = json {
            guard let first = elements.first, let error = ModelError(providerJSON: first) else { return nil }
            self = error
            return
        }
        guard case .object = json else { return nil }
        let payload: JSONValue
        if let inner = json["error"], inner != .null {
            payload = inner
        } else if json["type"]?.stringValue == "error" {
            payload = json  // OpenAI Responses: {"type":"error","code":…,"message":…}
        } else {
            return nil
        }
        if let message = payload.stringValue {  // Ollama: {"error":"…"}
            self.init(message: message)
            return
        }
        let numeric = payload["code"]?.intValue
        let code =
            payload["status"]?.stringValue ?? payload["code"]?.stringValue ?? payload["type"]?.stringValue
            ?? numeric.map(String.init)
        let message = payload["message"]?.stringValue ?? json["message"]?.stringValue ?? payload.jsonText
        let status = numeric.flatMap { (100...599).contains($0) ? $0 : nil }
        let retryable = (status.map(ConnectionFailure.isRetryable(status:)) ?? false) || Self.isRetryable(code: code)
        self.init(code: code, message: message, retryable: retryable, status: status)
    }
}
