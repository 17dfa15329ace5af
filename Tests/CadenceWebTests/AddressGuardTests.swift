import Testing

@testable import CadenceWeb

/// The fetch guard as a table: every refused range in IPv4 and IPv6 notation, every spelling of an
/// address a URL may use, and the public addresses that must stay reachable.
@Suite struct AddressGuardTests {
    /// Hosts as a URL may write them, each refused, with the range the refusal must name.
    static let refusedHosts: [(host: String, range: String)] = [
        ("127.0.0.1", "loopback"), ("127.255.255.254", "loopback"), ("localhost-free.127.0.0.1.0", "invalid"),
        ("2130706433", "loopback"), ("0x7f000001", "loopback"), ("0x7f.1", "loopback"), ("0177.0.0.1", "loopback"),
        ("017700000001", "loopback"), ("127.1", "loopback"), ("127.0.1", "loopback"), ("127.0.0.1.", "loopback"),
        ("0X7F.0.0.1", "loopback"),
        ("0.0.0.0", "unspecified"), ("0", "unspecified"), ("0.1.2.3", "this network"),
        ("10.0.0.1", "private (10"), ("10.255.255.255", "private (10"), ("167772161", "private (10"),
        ("172.16.0.1", "private (172.16"), ("172.31.255.255", "private (172.16"),
        ("192.168.1.1", "private (192.168"), ("0xc0.0xa8.1.1", "private (192.168"),
        ("169.254.169.254", "link-local"), ("169.254.0.1", "link-local"), ("2852039166", "link-local"),
        ("100.64.0.1", "CGNAT"), ("100.127.255.255", "CGNAT"),
        ("224.0.0.1", "multicast"), ("239.255.255.250", "multicast"),
        ("255.255.255.255", "broadcast"), ("240.0.0.1", "reserved"),
        ("192.0.0.170", "IETF"), ("192.0.2.1", "documentation"), ("198.51.100.7", "documentation"),
        ("203.0.113.9", "documentation"), ("198.18.0.1", "benchmarking"), ("192.88.99.1", "6to4 relay"),
        ("[::1]", "loopback (::1)"), ("::1", "loopback (::1)"), ("[0:0:0:0:0:0:0:1]", "loopback (::1)"),
        ("[::]", "unspecified (::)"),
        ("[::ffff:127.0.0.1]", "IPv4-mapped"), ("[::ffff:7f00:1]", "IPv4-mapped"), ("[::ffff:a9fe:a9fe]", "link-local"),
        ("[::ffff:10.1.2.3]", "private"), ("[::127.0.0.1]", "IPv4-compatible"), ("[::ffff:0:127.0.0.1]", "translated"),
        ("[64:ff9b::127.0.0.1]", "NAT64"), ("[64:ff9b::a9fe:a9fe]", "NAT64"), ("[64:ff9b:1::1]", "local-use NAT64"),
        ("[2002:7f00:1::]", "6to4"), ("[2002:c0a8:101::1]", "6to4"),
        ("[fe80::1]", "link-local (fe80"), ("[febf:ffff::1]", "link-local (fe80"), ("[fec0::1]", "site-local"),
        ("[fc00::1]", "unique local"), ("[fd12:3456::1]", "unique local"),
        ("[ff02::1]", "multicast"), ("[ff05::fb]", "multicast"),
        ("[2001:db8::1]", "documentation"), ("[2001::1]", "Teredo"), ("[100::1]", "discard"),
        ("[3fff::1]", "documentation"),
        ("[fe80::1%25eth0]", "invalid"), ("1.2.3.256", "invalid"), ("1.2.3.4.5", "invalid"), ("0x1g.1", "invalid"),
        ("foo.0x10", "invalid"), ("[1.2.3.4]", "invalid"),
    ]

    @Test(arguments: refusedHosts)
    func refusedHost(host: String, range: String) {
        switch HostSpelling.classify(host) {
        case .invalid:
            #expect(range == "invalid", "\(host) is not an address")
        case .domain(let name):
            Issue.record("\(host) read as the domain \(name)")
        case .address(let address):
            let reason = AddressGuard.refusal(for: address)
            #expect(reason?.contains(range) == true, "\(host) → \(address): \(reason ?? "allowed")")
        }
    }

    static let publicHosts = [
        "93.184.215.14", "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.63.255.255", "100.128.0.1",
        "169.253.1.1", "192.169.0.1", "11.0.0.1", "223.255.255.255", "[2606:4700:4700::1111]",
        "[2a00:1450:4001:82b::200e]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "[2002:808:808::1]", "134744072",
    ]

    @Test(arguments: publicHosts)
    func publicAddressesPass(host: String) throws {
        let address = try #require(IPAddress(host: host))
        #expect(AddressGuard.refusal(for: address) == nil, "\(host) → \(address)")
    }

    @Test func spellingsNormalise() {
        #expect(IPAddress(host: "2130706433")?.description == "127.0.0.1")
        #expect(IPAddress(host: "0x7f.1")?.description == "127.0.0.1")
        #expect(IPAddress(host: "0177.0.0.01")?.description == "127.0.0.1")
        #expect(IPAddress(host: "[::FFFF:7F00:1]")?.description == "::ffff:127.0.0.1")
        #expect(HostSpelling.classify("Example.ORG.") == .domain("example.org"))
        #expect(HostSpelling.classify("1.example") == .domain("1.example"))
    }

    @Test func allowancesParse() {
        #expect(FetchAllowance("127.0.0.1:8080") == FetchAllowance(host: "127.0.0.1", port: 8080))
        #expect(FetchAllowance("[::1]:8080")?.host == "::1")
        #expect(FetchAllowance("LocalHost:80")?.host == "localhost")
        #expect(FetchAllowance("0x7f.1:80")?.host == "127.0.0.1")
        for bad in ["localhost", "localhost:", ":80", "host:0", "host:70000", "::1:80", "1.2.3.256:80", "a:b"] {
            #expect(FetchAllowance(bad) == nil, "\(bad)")
        }
    }
}
