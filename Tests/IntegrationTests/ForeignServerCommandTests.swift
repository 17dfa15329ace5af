import CadenceTesting
import Hummingbird
import NIOCore
import Testing

/// `cadence ask` against a server that is not Cadence's: the failure is still one line.
@Suite("cadence ask against a server that is not Cadence's")
struct ForeignServerCommandTests {
    static let page = """
        <!DOCTYPE HTML>
        <html lang="en">
            <head><title>Error response</title></head>
            <body>
                <h1>Error response</h1>
                <p>Error code: 501</p>
                <p>Message: Unsupported method ('POST').</p>
            </body>
        </html>

        """

    @Test("an HTML error page fails the answer with one line on stderr, not the page")
    func htmlErrorPageIsOneLine() async throws {
        // What `python3 -m http.server` answers to POST /v1/answers: the whole page used to go to
        // stderr, line by line.
        let router = Router()
        router.post("/v1/answers") { _, _ in
            Response(
                status: .notImplemented, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: Self.page)))
        }
        let server = try await LoopbackServer.start(router: router, label: "cadence.foreign")
        let result: CadenceBinary.Result
        do {
            result = try await CadenceBinary.run(["ask", "--url", server.baseURL, "--plain", "--no-history", "q"])
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter {
            !$0.contains("reconnecting") && !$0.contains("Reconnected")
        }
        #expect(lines.count == 1, "stderr: \(result.stderr)")
        #expect(lines.first?.contains("HTTP 501") == true, "stderr: \(result.stderr)")
        #expect(lines.first?.contains("Message: Unsupported method") == true, "the page's words stay, on one line")
    }
}
