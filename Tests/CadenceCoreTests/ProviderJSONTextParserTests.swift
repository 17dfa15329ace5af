import Foundation
import Testing

@testable import CadenceCore

struct ProviderJSONTextParserTests {
    /// Every payload of every fixture parses to what `JSONValue(parsing:)` (Foundation) gives.
    @Test(arguments: ProviderFixture.all)
    func agreesWithFoundationOnEveryCapturedPayload(fixture: ProviderFixture) throws {
        let lines = String(decoding: fixture.bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        let payloads =
            fixture.dialect.usesLineFraming
            ? lines.map(String.init)
            : lines.filter { $0.hasPrefix("data: {") }.map { String($0.dropFirst(5)) }
        #expect(!payloads.isEmpty)
        for payload in payloads {
            #expect(try JSONTextParser.parse(payload) == foundationParse(payload))
        }
    }

    @Test(arguments: [
        #"{"a":[1,-2.5,3e2,0.125E-1,true,false,null],"b":{}}"#,
        #"  [ "x" , [ ] , { "k" : "v" } ]  "#,
        #""esc \" \\ \/ \b \f \n \r \t \u00e9 \u4e2d \ud83c\udf0d""#,
        #"{"dup":1,"dup":2}"#,
        #"{"trailing":[1,2,],}"#,
        "\"héllo 🌍\"",
        "-0",
        "123456789012",
    ])
    func agreesWithFoundation(text: String) throws {
        #expect(try JSONTextParser.parse(text) == foundationParse(text))
    }

    @Test func decodesEscapesAndSurrogates() throws {
        #expect(try JSONTextParser.parse(#""\ud83c\udf0d \u0041""#) == "🌍 A")
        #expect(try JSONTextParser.parse(#""lone \ud83c!""#) == "lone \u{FFFD}!")
    }

    @Test(arguments: [
        ("", "the text ends where a value should start at the end of the text"),
        ("{", "expected a string key in an object at the end of the text"),
        (#"{"a" 1}"#, "expected ':' after an object key at offset 5 ('1')"),
        (#"{"a":1,,}"#, "expected a string key in an object at offset 7 (',')"),
        ("[,]", "unexpected character at offset 1 (',')"),
        ("[1 2]", "expected ',' or ']' in an array at offset 3 ('2')"),
        (#""abc"#, "the text ends inside a string at the end of the text"),
        ("\"a\u{01}\"", "a control character inside a string must be escaped at offset 2 (byte 1)"),
        (#""\x""#, "invalid escape in a string at offset 2 ('x')"),
        (#""\u12G4""#, #"invalid hex digit in a \u escape at offset 5 ('G')"#),
        ("01", "unexpected content after the JSON value at offset 1 ('1')"),
        ("-", "expected a digit at the end of the text"),
        ("1.", "expected a digit after '.' at the end of the text"),
        ("1e+", "expected a digit in an exponent at the end of the text"),
        ("tru", "unexpected character at offset 0 ('t')"),
        ("nul1", "unexpected character at offset 0 ('n')"),
        ("{} x", "unexpected content after the JSON value at offset 3 ('x')"),
        ("NaN", "unexpected character at offset 0 ('N')"),
    ])
    func rejectsInvalidJSONSayingWhere(text: String, message: String) {
        #expect(throws: JSONTextParser.Failure(message: message)) { try JSONTextParser.parse(text) }
        #expect((try? foundationParse(text)) == nil)
    }

    /// Found by the research fuzzer: `Double("1e999")` is infinity, not nil, so such a number was read
    /// as infinity and written back as `null`.
    @Test(arguments: ["1e999", "-1e400", "[" + String(repeating: "7", count: 400) + "]"])
    func rejectsNumbersBeyondDouble(text: String) {
        #expect(throws: JSONTextParser.Failure.self) { try JSONTextParser.parse(text) }
    }

    @Test func limitsNesting() throws {
        let deep =
            String(repeating: "[", count: JSONTextParser.maxDepth)
            + String(repeating: "]", count: JSONTextParser.maxDepth)
        #expect(throws: Never.self) { try JSONTextParser.parse(deep) }
        #expect(throws: JSONTextParser.Failure.self) { try JSONTextParser.parse("[" + deep + "]") }
    }
}

/// The reference: Foundation's `JSONDecoder` through `JSONValue`'s `Decodable` conformance.
private func foundationParse(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
}
