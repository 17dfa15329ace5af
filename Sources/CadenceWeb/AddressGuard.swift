/// The fetch guard's rule: which addresses a page may not be fetched from, and why.
///
/// Refused: every range that reaches this machine, its network or the provider's infrastructure
/// rather than the public internet (loopback, private, link-local with the cloud metadata address
/// 169.254.169.254, CGNAT, multicast, broadcast, unspecified, reserved, documentation and benchmark
/// ranges, IPv6 unique-local, link-local and site-local, discard and special-purpose ranges), and
/// every IPv6 form that carries an IPv4 address (mapped, compatible, translated, NAT64 and 6to4),
/// by the IPv4 address inside it.
///
/// ```swift
/// AddressGuard.refusal(for: IPAddress(host: "169.254.169.254")!)  // "link-local (169.254.0.0/16)"
/// AddressGuard.refusal(for: IPAddress(host: "93.184.215.14")!)    // nil
/// ```
public enum AddressGuard {
    private struct Range {
        let prefix: [UInt8]
        let length: Int
        let name: String

        init(_ prefix: [UInt8], _ length: Int, _ name: String) {
            self.prefix = prefix
            self.length = length
            self.name = name
        }

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == prefix.count else { return false }
            for bit in 0..<length where (bytes[bit / 8] ^ prefix[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
                return false
            }
            return true
        }
    }

    private static let ipv4Ranges: [Range] = [
        Range([0, 0, 0, 0], 8, "unspecified or \"this network\" (0.0.0.0/8)"),
        Range([10, 0, 0, 0], 8, "private (10.0.0.0/8)"),
        Range([100, 64, 0, 0], 10, "shared address space, CGNAT (100.64.0.0/10)"),
        Range([127, 0, 0, 0], 8, "loopback (127.0.0.0/8)"),
        Range([169, 254, 0, 0], 16, "link-local, cloud metadata (169.254.0.0/16)"),
        Range([172, 16, 0, 0], 12, "private (172.16.0.0/12)"),
        Range([192, 0, 0, 0], 24, "IETF protocol assignments (192.0.0.0/24)"),
        Range([192, 0, 2, 0], 24, "documentation (192.0.2.0/24)"),
        Range([192, 88, 99, 0], 24, "6to4 relay anycast (192.88.99.0/24)"),
        Range([192, 168, 0, 0], 16, "private (192.168.0.0/16)"),
        Range([198, 18, 0, 0], 15, "benchmarking (198.18.0.0/15)"),
        Range([198, 51, 100, 0], 24, "documentation (198.51.100.0/24)"),
        Range([203, 0, 113, 0], 24, "documentation (203.0.113.0/24)"),
        Range([224, 0, 0, 0], 4, "multicast (224.0.0.0/4)"),
        Range([255, 255, 255, 255], 32, "broadcast (255.255.255.255)"),
        Range([240, 0, 0, 0], 4, "reserved (240.0.0.0/4)"),
    ]

    private static func v6(_ groups: [UInt16]) -> [UInt8] {
        let padded = groups + [UInt16](repeating: 0, count: 8 - groups.count)
        return padded.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    private static let ipv6Ranges: [Range] = [
        Range(v6([]), 128, "unspecified (::)"),
        Range(v6([0, 0, 0, 0, 0, 0, 0, 1]), 128, "loopback (::1)"),
        Range(v6([0x64, 0xFF9B, 1]), 48, "local-use NAT64 (64:ff9b:1::/48)"),
        Range(v6([0x100]), 64, "discard-only (100::/64)"),
        Range(v6([0x2001, 0xDB8]), 32, "documentation (2001:db8::/32)"),
        Range(v6([0x2001]), 23, "IETF special purpose, Teredo (2001::/23)"),
        Range(v6([0x3FFF]), 20, "documentation (3fff::/20)"),
        Range(v6([0x5F00]), 16, "segment routing (5f00::/16)"),
        Range(v6([0xFC00]), 7, "unique local (fc00::/7)"),
        Range(v6([0xFE80]), 10, "link-local (fe80::/10)"),
        Range(v6([0xFEC0]), 10, "site-local (fec0::/10)"),
        Range(v6([0xFF00]), 8, "multicast (ff00::/8)"),
    ]

    /// IPv6 ranges whose addresses carry an IPv4 address: the range, and where the IPv4 bytes start.
    private static let embeddingRanges: [(range: Range, offset: Int)] = [
        (Range(v6([0, 0, 0, 0, 0, 0xFFFF]), 96, "IPv4-mapped (::ffff:0:0/96)"), 12),
        (Range(v6([]), 96, "IPv4-compatible (::/96)"), 12),
        (Range(v6([0, 0, 0, 0, 0xFFFF, 0]), 96, "IPv4-translated (::ffff:0:0:0/96)"), 12),
        (Range(v6([0x64, 0xFF9B]), 96, "NAT64 (64:ff9b::/96)"), 12),
        (Range(v6([0x2002]), 16, "6to4 (2002::/16)"), 2),
    ]

    /// Why `address` is refused, or `nil` when a page may be fetched from it.
    public static func refusal(for address: IPAddress) -> String? {
        let bytes = address.bytes
        if address.isIPv4 { return ipv4Ranges.first { $0.contains(bytes) }?.name }
        if let range = ipv6Ranges.first(where: { $0.contains(bytes) }) { return range.name }
        for (range, offset) in embeddingRanges where range.contains(bytes) {
            let embedded = IPAddress(bytes: Array(bytes[offset..<(offset + 4)]))!
            if let inner = refusal(for: embedded) { return "\(range.name) of \(embedded): \(inner)" }
        }
        return nil
    }
}
