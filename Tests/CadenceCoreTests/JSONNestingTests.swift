import CadenceTesting
import Foundation
import Testing

@testable import CadenceCore

/// 10⁵-deep JSON (`[[[[…` and `{"a":{"a":…`) through the JSON reader, every provider dialect and the
/// research-event decoder, on a thread with a 512 KiB stack (the smallest a Swift test may get), so
/// recursion proportional to the depth would crash here.
///
/// The reader stops at `JSONTextParser.maxDepth` levels with a typed error naming the offset where
/// it stopped: that offset is its work, and it stays the same however deep the input goes, so the
/// time is constant in the depth (linear in the input at worst, for the decoders that frame it).
@Suite("Deep JSON")
struct JSONNestingTests {
    static let shapes: [(name: String, open: String, close: String)] = [
        ("arrays", "[", "]"),
        ("objects", #"{"a":"#, "}"),
        ("arrays in objects", #"{"a":["#, "]}"),
    ]

    static func deep(_ shape: (name: String, open: String, close: String), _ depth: Int) -> String {
        String(repeating: shape.open, count: depth) + "0" + String(repeating: shape.close, count: depth)
    }

    /// The offset at which the reader gave up, from its message ("… at offset N (…)").
    static func stoppingOffset(_ text: String) -> Int? {
        do {
            _ = try JSONTextParser.parse(text)
            return nil
        } catch {
            guard error.message.contains("nesting deeper than \(JSONTextParser.maxDepth) levels") else { return nil }
            return error.message.firstMatch(of: /at offset (\d+)/).flatMap { Int($0.1) }
        }
    }

    @Test("10⁵ levels stop at the depth limit, after the same work at twice the depth", arguments: shapes.map(\.name))
    func deepValuesStop(_ name: String) throws {
        let shape = Self.shapes.first { $0.name == name }!
        let (single, double) = onSmallStack {
            (Self.stoppingOffset(Self.deep(shape, 100_000)), Self.stoppingOffset(Self.deep(shape, 200_000)))
        }
        let work = try #require(single, "a 10⁵-deep value must fail with the nesting error")
        print("\(name): the reader stops at offset \(work) of \(Self.deep(shape, 100_000).utf8.count) bytes; \(double ?? -1) at twice the depth")
        // It read no further than the opener one level past the limit.
        #expect(work <= JSONTextParser.maxDepth * shape.open.utf8.count)
        #expect(double == single)
    }

    @Test("a value exactly at the depth limit parses, compares, hashes, prints and frees on a small stack",
        arguments: shapes.map(\.name))
    func deepestAccepted(_ name: String) throws {
        let shape = Self.shapes.first { $0.name == name }!
        let levels = shape.open.filter { $0 == "[" || $0 == "{" }.count  // nesting levels per repetition
        let text = Self.deep(shape, JSONTextParser.maxDepth / levels)
        let roundTrip = onSmallStack { () -> Bool in
            guard let value = try? JSONValue(parsing: text), let again = try? JSONValue(parsing: value.jsonText) else {
                return false
            }
            return value == again && value.hashValue == again.hashValue
        }
        #expect(roundTrip)
        #expect(Self.stoppingOffset(Self.deep(shape, JSONTextParser.maxDepth / levels + 1)) != nil)
    }

    @Test("every provider dialect turns a 10⁵-deep payload into an invalid-JSON error", arguments: ModelDialect.allCases)
    func providerDialects(_ dialect: ModelDialect) {
        for shape in Self.shapes {
            let payload = Self.deep(shape, 100_000)
            let stream = dialect.usesLineFraming ? payload + "\n" : "data: " + payload + "\n\n"
            let events = onSmallStack { () -> [ModelEvent] in
                var decoder = ModelStreamDecoder(dialect: dialect)
                return ((try? decoder.feed(Array(stream.utf8))) ?? []) + ((try? decoder.finish()) ?? [])
            }
            #expect(
                events.contains { if case .error(let error) = $0 { error.code == ModelError.invalidJSON } else { false } },
                "\(dialect) \(shape.name): \(events.map { $0.jsonLine().prefix(200) })")
        }
    }

    @Test("auto-detection and unframed JSON survive a 10⁵-deep value")
    func autoDetectionAndBareValues() {
        for shape in Self.shapes {
            let deep = Self.deep(shape, 100_000)
            for stream in ["data: " + deep + "\n\n", deep + "\n", "data: {\"choices\":[]}\n\n" + deep + "\n"] {
                let events = onSmallStack { () -> [ModelEvent] in
                    var decoder = ModelStreamDecoder.autoDetecting()
                    return ((try? decoder.feed(Array(stream.utf8))) ?? []) + ((try? decoder.finish()) ?? [])
                }
                #expect(events.contains { if case .error = $0 { true } else { false } }, "\(shape.name)")
            }
        }
    }

    @Test("the research-event decoder rejects a 10⁵-deep event as invalid JSON")
    func researchEvents() {
        for shape in Self.shapes {
            let event = SSEEvent(type: "token", data: Self.deep(shape, 100_000), id: "1")
            let code = onSmallStack { () -> ResearchDecodingError.Code? in
                do throws(ResearchDecodingError) {
                    _ = try ResearchEventDecoder.decode(event)
                    return nil
                } catch {
                    return error.code
                }
            }
            #expect(code == .invalidJSON)
        }
    }
}
