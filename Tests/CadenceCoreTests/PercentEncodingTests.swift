import CadenceCore
import Testing

@Suite struct PercentEncodingTests {
    @Test func everyByteButTheUnreservedIsEncoded() {
        #expect(PercentEncoding.encode("a b/ü~-._Z9") == "a%20b%2F%C3%BC~-._Z9")
        #expect(PercentEncoding.encode("a b/ü", keepingSlashes: true) == "a%20b/%C3%BC")
        #expect(PercentEncoding.encode("\u{1}") == "%01")
    }
}
