import CadenceEngine
import CadenceTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import CadenceWeb

/// The fetch guard end to end: refused before any connection, first and after a redirect from an
/// allowed server, and the connection made to the address that was checked.
@Suite struct FetchGuardTests {
    /// URLs that must be refused, each in a spelling a URL may use.
    static let refusedURLs = [
        "http://127.0.0.1:{other}/", "http://[::1]:{other}/", "http://169.254.169.254/latest/meta-data/",
        "http://2130706433:{other}/", "http://0x7f.1:{other}/", "http://0177.0.0.1:{other}/", "http://127.1:{other}/",
        "http://localhost:{other}/", "http://LOCALHOST.:{other}/", "http://10.0.0.1/", "http://172.16.0.1/",
        "http://192.168.0.1/", "http://100.64.0.1/", "http://0.0.0.0:{other}/", "http://[::]:{other}/",
        "http://224.0.0.1/", "http://255.255.255.255/", "http://[::ffff:127.0.0.1]:{other}/",
        "http://[::ffff:a9fe:a9fe]/", "http://[64:ff9b::7f00:1]/", "http://[fe80::1]/", "http://[fd00::1]/",
        "http://[ff02::1]/", "https://127.0.0.1:{other}/", "http://%31%32%37.0.0.1:{other}/",
        "http://user@127.0.0.1:{other}/",
    ]

    /// Each refused URL, asked for directly: refused, and the server behind it never hears of it.
    @Test(arguments: refusedURLs)
    func refusedDirectly(template: String) async throws {
        try await withPageServer { other in
            let url = template.replacingOccurrences(of: "{other}", with: "\(other.port)")
            let error = await PageFetcherTests.error(PageFetcher(), url)
            #expect(error?.code == .refusedAddress, "\(url): \(String(describing: error))")
            #expect(other.requestCount == 0)
        }
    }

    /// Each refused URL as the target of a redirect from an allowed server: the redirect is
    /// checked again and refused, and the second server is never asked.
    @Test(arguments: refusedURLs)
    func refusedAfterARedirect(template: String) async throws {
        try await withPageServer { allowed in
            try await withPageServer { other in
                let target = template.replacingOccurrences(of: "{other}", with: "\(other.port)")
                let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let url = "\(allowed.baseURL)/redirect?to=\(escaped)"
                let error = await PageFetcherTests.error(PageFetcherTests.fetcher(allowed), url)
                #expect(error?.code == .refusedAddress, "\(target): \(String(describing: error))")
                #expect(allowed.requestCount == 1)
                #expect(other.requestCount == 0)
            }
        }
    }

    /// `--fetch-allow` names one `host:port`: that one is read, the same host's other ports are not.
    @Test func theAllowListIsByHostAndPort() async throws {
        try await withPageServer { allowed in
            try await withPageServer { other in
                let fetcher = PageFetcherTests.fetcher(allowed)
                _ = try await fetcher.fetch(URL(string: "\(allowed.baseURL)/page")!)
                let redirect = "\(allowed.baseURL)/redirect?to=\(other.baseURL)/page"
                #expect(await PageFetcherTests.error(fetcher, redirect)?.code == .refusedAddress)
                // Named by its name: every address it resolves to is allowed on that port.
                let byName = PageFetcher(policy: FetchPolicy(allowing: [FetchAllowance("localhost:\(other.port)")!]))
                _ = try await byName.fetch(URL(string: "http://localhost:\(other.port)/page")!)
                #expect(other.requestCount == 1)
            }
        }
    }

    /// A resolver that answers once for a name and never again, as a rebinding DNS server would
    /// answer differently the second time.
    final class OneAnswerResolver: HostResolver {
        let answer: IPAddress
        let asked = NIOLockedValueBox(0)

        init(_ answer: IPAddress) { self.answer = answer }

        func addresses(of host: String) async throws -> [IPAddress] {
            let count = asked.withLockedValue {
                $0 += 1
                return $0
            }
            return count == 1 ? [answer] : [IPAddress(host: "169.254.169.254")!]
        }
    }

    /// The connection goes to the address that was checked: `rebind.test` (a name no real DNS
    /// resolves) is looked up once, through the fetcher's resolver, and the page comes from that
    /// address with the name in `Host`. Were the client to look the name up again, it would fail
    /// (or, with a rebinding server, reach whatever the second answer said).
    @Test func connectsToTheCheckedAddress() async throws {
        try await withPageServer { server in
            let resolver = OneAnswerResolver(IPAddress(host: "127.0.0.1")!)
            let policy = FetchPolicy(allowing: [FetchAllowance(host: "127.0.0.1", port: server.port)])
            let fetcher = PageFetcher(policy: policy, resolver: resolver)
            let page = try await fetcher.fetch(URL(string: "http://rebind.test:\(server.port)/host")!)
            #expect(page.text.text == "rebind.test:\(server.port)")
            #expect(resolver.asked.withLockedValue { $0 } == 1)
        }
    }

    /// A name whose addresses include a refused one is refused whole, even if another is public.
    @Test func everyResolvedAddressIsChecked() async throws {
        struct Mixed: HostResolver {
            func addresses(of host: String) async throws -> [IPAddress] {
                [IPAddress(host: "93.184.215.14")!, IPAddress(host: "10.0.0.7")!]
            }
        }
        let error = await PageFetcherTests.error(PageFetcher(resolver: Mixed()), "http://mixed.test/")
        #expect(error?.code == .refusedAddress)
        #expect(error?.message.contains("10.0.0.7") == true)
    }
}
