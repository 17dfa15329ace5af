import Foundation

extension PacingTrace {
    /// What is wrong with a trace and where, in one line and the trace's own terms (`arrivals[3]: the
    /// chunk must be a string`), instead of `DecodingError`'s description with its coding path and
    /// debug text.
    static func describe(_ error: DecodingError, in json: Data) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let place = context.codingPath.isEmpty ? "" : field(context.codingPath) + ": "
            return "\(place)\"\(key.stringValue)\" is missing"
        case .typeMismatch(_, let context):
            return "\(field(context.codingPath)) must be \(expected(context.codingPath))"
        case .valueNotFound(_, let context):
            return "\(field(context.codingPath)) must be \(expected(context.codingPath)), not null"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON" + (syntaxError(in: json).map { " (\($0))" } ?? "")
        case .dataCorrupted(let context):
            // Thrown by `Arrival` about its pair as a whole, whatever element the container was at.
            return "\(field(Array(context.codingPath.prefix(2)))): \(context.debugDescription)"
        @unknown default:
            return error.localizedDescription
        }
    }

    /// Where the JSON syntax breaks (`Invalid value around character 12`), which `JSONDecoder` does
    /// not say on every platform.
    private static func syntaxError(in json: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
            return nil
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return detail?.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters))
        }
    }

    /// The place a coding path names: `the trace`, `"end_ms"`, `arrivals[3]`, `arrivals[3]: the chunk`.
    private static func field(_ path: [any CodingKey]) -> String {
        guard let first = path.first else { return "the trace" }
        guard first.stringValue == CodingKeys.arrivals.stringValue, path.count > 1, let index = path[1].intValue else {
            return path.map { $0.intValue.map { "[\($0)]" } ?? "\"\($0.stringValue)\"" }.joined()
        }
        let arrival = "arrivals[\(index)]"
        switch path.count > 2 ? path[2].intValue : nil {
        case 0?: return arrival + ": the time"
        case 1?: return arrival + ": the chunk"
        default: return arrival
        }
    }

    /// What belongs at a coding path, from the trace format.
    private static func expected(_ path: [any CodingKey]) -> String {
        switch (path.count, path.first?.stringValue, path.last?.intValue) {
        case (0, _, _): "a JSON object {\"name\", \"arrivals\", \"end_ms\"}"
        case (1, CodingKeys.arrivals.stringValue?, _): "an array of [t_ms, \"chunk\"] pairs"
        case (1, CodingKeys.endMilliseconds.stringValue?, _): "a number (milliseconds)"
        case (1, _, _): "a string"
        case (2, _, _): "an array [t_ms, \"chunk\"]"
        case (_, _, 0?): "a number (milliseconds)"
        default: "a string"
        }
    }
}
