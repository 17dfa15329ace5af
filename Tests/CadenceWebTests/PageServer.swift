import CadenceTesting
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A loopback web server with the pages and misbehaviours the fetcher must handle: pages in two
/// charsets, plain text, a PDF, bodies over the size cap (declared and streamed), redirects to
/// anywhere, a chain of redirects, a page that never finishes, and an echo of the `Host` header.
/// It counts the requests it receives, so a test can tell a refusal (none) from a failed connection.
final class PageServer: Sendable {
    private let loopback: LoopbackServer
    private let hits: NIOLockedValueBox<Int>

    var port: Int { loopback.port }
    var baseURL: String { loopback.baseURL }
    var requestCount: Int { hits.withLockedValue { $0 } }

    private init(loopback: LoopbackServer, hits: NIOLockedValueBox<Int>) {
        self.loopback = loopback
        self.hits = hits
    }

    static let article = """
        <html><head><title>Soup &amp; bread</title><script>track()</script></head>
        <body><nav>Home</nav><h1>Soup</h1><p>Leeks, then potatoes.</p></body></html>
        """
    /// "Crème brûlée – 5 €" in Windows-1252.
    static let windows1252Text: [UInt8] = [
        0x43, 0x72, 0xE8, 0x6D, 0x65, 0x20, 0x62, 0x72, 0xFB, 0x6C, 0xE9, 0x65, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80,
    ]

    static func start() async throws -> PageServer {
        let hits = NIOLockedValueBox(0)
        let router = Router()
        router.middlewares.add(CountingMiddleware(hits: hits))
        router.get("/page") { _, _ in page(article, type: "text/html; charset=utf-8") }
        router.get("/xhtml") { _, _ in page(article, type: "application/xhtml+xml") }
        router.get("/latin1") { _, _ in
            page(Array("<p>".utf8) + windows1252Text + Array("</p>".utf8), type: "text/html; charset=ISO-8859-1")
        }
        router.get("/meta-charset") { _, _ in
            page(Array("<meta charset=windows-1252><p>".utf8) + windows1252Text, type: "text/html")
        }
        router.get("/plain") { _, _ in page("plain \u{1B}[31mtext", type: "text/plain") }
        router.get("/pdf") { _, _ in page("%PDF-1.7", type: "application/pdf") }
        router.get("/untyped") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "x")))
        }
        router.get("/big-declared") { _, _ in
            page([UInt8](repeating: UInt8(ascii: "a"), count: (2 << 20) + 1), type: "text/html")
        }
        router.get("/big-streamed") { _, _ in
            // No Content-Length: the cap must hold while reading.
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody { writer in
                    for _ in 0..<48 {
                        try await writer.write(ByteBuffer(repeating: UInt8(ascii: "a"), count: 64 << 10))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/exactly-the-cap") { _, _ in
            page([UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20), type: "text/plain")
        }
        router.get("/redirect") { request, _ in
            let target = request.uri.queryParameters.get("to") ?? "/page"
            return Response(status: .found, headers: [.location: target])
        }
        router.get("/chain/{n}") { _, context in
            let n = context.parameters.get("n", as: Int.self) ?? 0
            return Response(status: .movedPermanently, headers: [.location: n > 0 ? "/chain/\(n - 1)" : "/page"])
        }
        router.get("/missing") { _, _ in Response(status: .notFound) }
        router.get("/stall") { _, _ in
            // The head and a little body, then a byte now and then, never the end: only the page
            // timeout ends it (the writes stop when the client goes).
            Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "<p>partial"))
                    while true {
                        try await Task.sleep(for: .milliseconds(50))
                        try await writer.write(ByteBuffer(string: " "))
                    }
                })
        }
        router.get("/host") { request, _ in page(request.head.authority ?? "none", type: "text/plain") }
        let loopback = try await LoopbackServer.start(router: router, label: "cadence.pages")
        return PageServer(loopback: loopback, hits: hits)
    }

    func shutdown() async {
        await loopback.shutdown()
    }

    private static func page(_ text: String, type: String) -> Response {
        page(Array(text.utf8), type: type)
    }

    private static func page(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Counts every request the server receives.
private struct CountingMiddleware<Context: RequestContext>: RouterMiddleware {
    let hits: NIOLockedValueBox<Int>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    )
        async throws -> Response
    {
        hits.withLockedValue { $0 += 1 }
        return try await next(request, context)
    }
}

/// Runs `body` with a started server, and stops it after.
func withPageServer<T>(_ body: (PageServer) async throws -> T) async throws -> T {
    let server = try await PageServer.start()
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
