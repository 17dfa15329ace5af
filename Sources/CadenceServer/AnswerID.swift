/// Answer ids: `ans_` and 128 random bits from the system's cryptographic generator, in hex.
///
/// Knowing one answer's id tells nothing about another's, so an id is as good as a capability to
/// read that answer. (`SystemRandomNumberGenerator` reads `getrandom` on Linux and
/// `arc4random_buf` on Apple platforms, both cryptographically secure.)
/// Conversation ids the server makes (`POST /v1/conversations`) are the same with `conv_`.
enum AnswerID {
    static func generate(prefix: String = "ans_") -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return prefix + hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
