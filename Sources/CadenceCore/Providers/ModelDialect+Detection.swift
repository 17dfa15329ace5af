extension ModelDialect {
    /// Tells the dialect of a captured stream from its first bytes, or returns `nil` when they do not
    /// say yet.
    ///
    /// Looks at complete lines only (and the unfinished last one when `isComplete` is `true`, meaning
    /// these bytes are the whole stream): an SSE `event:` name (`response.*` is OpenAI Responses,
    /// `message_start` and `content_block_*` are Anthropic), else the JSON shape of the first `data:`
    /// payload (`choices`, `candidates`, a `type` …), else the shape of a bare JSON line (Ollama's
    /// NDJSON, or data payloads captured without their SSE framing). A body starting with `[` is
    /// Gemini's JSON-array stream.
    ///
    /// ```swift
    /// let capture = "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
    /// ModelDialect.detect(Array(capture.utf8))  // .anthropic
    /// ```
    public static func detect(_ prefix: some Collection<UInt8>, isComplete: Bool = false) -> ModelDialect? {
        detect(prefix, isComplete: isComplete, startsStream: true)
    }

    /// ``detect(_:isComplete:)`` of lines that start the stream or, with `startsStream` false, follow
    /// lines already read: a byte order mark is skipped only at the very start, as the SSE decoder
    /// does, so that the lines say the same whichever chunk they came in.
    static func detect(_ lines: some Collection<UInt8>, isComplete: Bool, startsStream: Bool) -> ModelDialect? {
        var text = String(decoding: lines, as: UTF8.self)
        if startsStream, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        if !isComplete { lines.removeLast() }  // the last piece has no line end yet
        for line in lines {
            if let dialect = dialect(ofLine: line) { return dialect }
        }
        if isComplete, let json = try? JSONTextParser.parse(text) {
            return dialect(ofJSON: json)  // e.g. a pretty-printed error body
        }
        return nil
    }

    private static func dialect(ofLine line: Substring) -> ModelDialect? {
        if line.hasPrefix("event:") {
            let name = line.dropFirst("event:".count).trimmedWhitespace
            if name.hasPrefix("response.") { return .openAIResponses }
            return anthropicTypes.contains(String(name)) ? .anthropic : nil
        }
        if line.hasPrefix("data:") {
            let payload = String(line.dropFirst("data:".count).trimmedWhitespace)
            if payload == "[DONE]" { return .openAIChat }
            return (try? JSONTextParser.parse(payload)).flatMap(dialect(ofJSON:))
        }
        let trimmed = String(line.trimmedWhitespace)
        if trimmed == "[DONE]" { return .openAIChat }
        if trimmed.hasPrefix("[") { return .gemini }
        if trimmed.hasPrefix("{") { return (try? JSONTextParser.parse(trimmed)).flatMap(dialect(ofJSON:)) }
        return nil
    }

    private static func dialect(ofJSON json: JSONValue) -> ModelDialect? {
        if case .array(let elements) = json { return elements.first.flatMap(dialect(ofJSON:)) }
        if let type = json["type"]?.stringValue {
            if type.hasPrefix("response.") { return .openAIResponses }
            if anthropicTypes.contains(type) { return .anthropic }
            if type == "error" { return json["error"]?.objectValue != nil ? .anthropic : .openAIResponses }
        }
        if json["candidates"] != nil || json["usageMetadata"] != nil || json["promptFeedback"] != nil {
            return .gemini
        }
        if json["choices"] != nil { return .openAIChat }
        if let object = json["object"]?.stringValue, object.hasPrefix("chat.completion") || object == "text_completion"
        {
            return .openAIChat
        }
        if json["done"]?.boolValue != nil, json["response"] != nil || json["message"] != nil || json["model"] != nil {
            return .ollama
        }
        if let error = json["error"] {
            if error.stringValue != nil { return .ollama }
            if error["status"]?.stringValue != nil { return .gemini }
            if error.objectValue != nil { return .openAIChat }
        }
        return nil
    }

    private static let anthropicTypes: Set<String> = [
        "message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta",
        "message_stop", "ping",
    ]
}
