import AsyncHTTPClient
import CadenceCore
import CadenceServer
import CadenceTesting
import Hummingbird
import NIOCore
import Testing

/// What a real browser can do to a Cadence server from a web page of another origin: headless
/// Chromium loads a page from a loopback server of its own (another port, so another origin), whose
/// script tries a `text/plain` `POST` (which browsers send cross-site without a preflight), a JSON
/// `POST` and a WebSocket against two servers: one that does not know the page's origin, and one
/// started with it in ``ServerConfiguration/corsOrigins``.
@Suite(
    "A web page in a real browser", .timeLimit(.minutes(1)),
    .enabled(if: HeadlessChromium.find() != nil, "chromium is not installed (.ci/run installs it)"))
struct BrowserPageTests {
    /// The page: it probes the servers named in its query and posts what happened to its own
    /// server's `/result`.
    static let page = """
        <!doctype html>
        <html><body><p>probing</p><script>
        const question = JSON.stringify({query: "What is SSE?"});
        async function post(base, type) {
          try {
            const response = await fetch(base + "/v1/answers", {method: "POST", headers: {"Content-Type": type}, body: question});
            const text = await response.text();
            return {status: response.status, complete: text.includes("event: complete"),
                    answerID: response.headers.get("Cadence-Answer-ID") !== null};
          } catch (error) {
            return {status: "blocked"};
          }
        }
        function webSocket(base) {
          return new Promise(resolve => {
            const messages = [];
            const socket = new WebSocket(base.replace("http://", "ws://") + "/v1/answers/ws");
            socket.onopen = () => socket.send(question);
            socket.onmessage = message => messages.push(message.data);
            socket.onclose = () => resolve({messages: messages.length,
                                            complete: messages.some(text => text.includes('"complete"'))});
          });
        }
        async function probe(base) {
          return {textPlain: await post(base, "text/plain"), json: await post(base, "application/json"),
                  webSocket: await webSocket(base)};
        }
        (async () => {
          const query = new URLSearchParams(location.search);
          const result = {refused: await probe(query.get("refused")), allowed: await probe(query.get("allowed"))};
          await fetch("/result", {method: "POST", body: JSON.stringify(result)});
        })();
        </script></body></html>
        """

    /// Serves ``page`` on 127.0.0.1 with a port of its own, and passes on what it reports.
    static func startPageServer(reports: AsyncStream<String>.Continuation) async throws -> LoopbackServer {
        let router = Router()
        router.post("/result") { request, _ -> HTTPResponse.Status in
            var request = request
            reports.yield(String(buffer: try await request.collectBody(upTo: 1 << 20)))
            return .ok
        }
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        return try await LoopbackServer.start(router: router, label: "cadence.page")
    }

    /// A counter of `server`'s metrics, read as a client with no `Origin` would.
    static func metric(_ series: String, of server: RunningServer) async throws -> Double? {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.baseURL + "/metrics"), timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return MetricsTests.value(of: series, in: text)
    }

    @Test("a page from another origin is refused fetch and WebSocket; one named by --cors-origin works")
    func crossOriginPage() async throws {
        let chromium = try #require(HeadlessChromium.find())
        let (reports, reporter) = AsyncStream<String>.makeStream()
        let pageServer = try await Self.startPageServer(reports: reporter)
        defer { Task { await pageServer.shutdown() } }
        var allowing = ServerConfiguration()
        allowing.corsOrigins = [pageServer.baseURL]
        try await withServer(engine: instantEngine) { refusing in
            try await withServer(engine: instantEngine, configuration: allowing) { allowed in
                let json = try await chromium.visit(
                    pageServer.baseURL + "/?refused=\(refusing.baseURL)&allowed=\(allowed.baseURL)"
                ) {
                    await reports.first { _ in true } ?? ""
                }
                let result = try JSONValue(parsing: json)

                // The page learns nothing from the server that does not know its origin…
                let refused = try #require(result["refused"], "\(json)")
                #expect(refused["textPlain"]?["status"] == "blocked")
                #expect(refused["json"]?["status"] == "blocked")
                #expect(refused["webSocket"]?["messages"] == 0)
                // …and the server did no work for it: the preflight-free text/plain POST and the
                // WebSocket upgrade reached the server and were refused there.
                #expect(try await Self.metric("cadence_answers_started_total", of: refusing) == 0)
                let refusals = #"cadence_requests_refused_total{code="origin_not_allowed"}"#
                #expect(try await Self.metric(refusals, of: refusing) == 3)

                // The allowed origin reads its answers, and why a text/plain body was refused.
                let served = try #require(result["allowed"], "\(json)")
                #expect(served["textPlain"]?["status"] == 415)
                #expect(served["json"]?["status"] == 200)
                #expect(served["json"]?["complete"] == true)
                #expect(served["json"]?["answerID"] == true)
                #expect(served["webSocket"]?["complete"] == true)
            }
        }
    }
}
