#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address, as the fetch guard checks it and as a fetch connects to it.
///
/// ``init(host:)`` reads a URL's host the way a browser and the C resolver do, so that no spelling
/// of an address slips past the guard: IPv4 in one to four parts, each decimal, octal (`0177`) or
/// hex (`0x7f`), so `2130706433`, `0x7f.1` and `0177.0.0.01` are all `127.0.0.1`; IPv6 with or
/// without brackets, with embedded IPv4 (`::ffff:127.0.0.1`).
///
/// ```swift
/// IPAddress(host: "0x7f.1")?.description      // "127.0.0.1"
/// IPAddress(host: "[::ffff:7f00:1]")?.description  // "::ffff:127.0.0.1"
/// ```
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address a URL host names, or `nil` when the host is a domain name.
    ///
    /// A host that ends in a number but is not a valid IPv4 address (`1.2.3.256`, `a.0x1g`) is not a
    /// domain either; ``HostSpelling/classify(_:)`` calls it invalid.
    public init?(host: String) {
        guard case .address(let address) = HostSpelling.classify(host) else { return nil }
        self = address
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv4 one holds, as a 32-bit number.
    var ipv4Value: UInt32? {
        guard isIPv4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses textual IPv6 (no brackets, no zone).
    static func parseIPv6(_ text: String) -> IPAddress? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { IPAddress(bytes: Array($0)) }
    }
}

/// What a URL host is: an address in any spelling, a domain name to resolve, or neither.
public enum HostSpelling: Sendable, Hashable {
    case address(IPAddress)
    case domain(String)
    /// Looks like an address (ends in a number, or is bracketed) but is not a valid one.
    case invalid

    /// Classifies `host` as the WHATWG URL standard does (which is also what `inet_aton`, and so
    /// `getaddrinfo`, accept): the lowercase name, with brackets and one trailing dot removed.
    public static func classify(_ host: String) -> HostSpelling {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            guard name.hasSuffix("]") else { return .invalid }
            return IPAddress.parseIPv6(String(name.dropFirst().dropLast())).map(HostSpelling.address) ?? .invalid
        }
        if name.contains(":") { return IPAddress.parseIPv6(name).map(HostSpelling.address) ?? .invalid }
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last == "" { parts.removeLast() }
        guard let last = parts.last, !last.isEmpty, isNumber(last) else {
            if name.hasSuffix(".") { name.removeLast() }
            return name.isEmpty ? .invalid : .domain(name)
        }
        guard parts.count <= 4 else { return .invalid }
        var values: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return .invalid }
            values.append(value)
        }
        if values.dropLast().contains(where: { $0 > 255 }) { return .invalid }
        let lastLimit: UInt64 = 1 << (8 * UInt64(5 - values.count))
        guard values[values.count - 1] < lastLimit else { return .invalid }
        var address = values[values.count - 1]
        for (index, value) in values.dropLast().enumerated() { address += value << (8 * UInt64(3 - index)) }
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: address >> (8 * UInt64(3 - $0))) }
        return IPAddress(bytes: bytes).map(HostSpelling.address) ?? .invalid
    }

    /// Whether `part` is a number as the IPv4 parser reads one (decimal, or `0x` and hex digits).
    private static func isNumber(_ part: Substring) -> Bool {
        if part.hasPrefix("0x") { return part.dropFirst(2).allSatisfy(\.isHexDigit) }
        return part.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// One part's value (`0x` hex, `0` octal, else decimal), saturated so that no part overflows.
    private static func number(_ part: Substring) -> UInt64? {
        var digits = part
        var radix: UInt64 = 10
        if part.hasPrefix("0x") {
            digits = part.dropFirst(2)
            radix = 16
        } else if part.count > 1, part.hasPrefix("0") {
            digits = part.dropFirst()
            radix = 8
        }
        guard !part.isEmpty else { return nil }
        var value: UInt64 = 0
        for character in digits {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else { return nil }
            value = min(value * radix + UInt64(digit), 1 << 40)
        }
        return value
    }
}
