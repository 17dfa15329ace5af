import Hummingbird

/// `GET /metrics`: the server's counters in the Prometheus text format, behind the token like every
/// route but `/healthz`.
extension ReferenceServer {
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    static func addMetricsRoute(to router: Router<BasicRequestContext>, metrics: ServerMetrics) {
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: metricsContentType],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.prometheusText())))
        }
    }
}
