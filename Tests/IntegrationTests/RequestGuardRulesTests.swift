import Testing

@testable import CadenceServer

/// The pure rules behind the connection guard: which heads are refused, and when a head is due.
@Suite("Request guard rules")
struct RequestGuardRulesTests {
    static let admission = RequestAdmission(configuration: ServerConfiguration(maxRequestBytes: 100, token: "s3cret"))

    @Test(
        "the token is required on every path but /healthz",
        arguments: [
            ("/healthz", nil, false), ("/healthz?verbose=1", nil, false), ("/v1/answers", nil, true),
            ("/metrics", nil, true), ("/healthz/", nil, true), ("/%76%31/answers", nil, true), ("/", nil, true),
            ("/v1/answers", "Bearer s3cret", false), ("/v1/answers", "bEaReR   s3cret  ", false),
            ("/v1/answers", "Bearer s3cre", true), ("/v1/answers", "Bearer s3crett", true),
            ("/v1/answers", "Bearer ", true), ("/v1/answers", "Basic s3cret", true), ("/v1/answers", "s3cret", true),
        ] as [(String, String?, Bool)])
    func token(path: String, authorization: String?, refused: Bool) {
        let refusal = Self.admission.refusal(path: path, authorization: authorization, contentLength: nil)
        #expect((refusal != nil) == refused)
        if let refusal {
            #expect(refusal.status == .unauthorized)
            #expect(refusal.code == "unauthorized")
            #expect(refusal.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test(
        "a declared body over the limit is refused, after the token",
        arguments: [
            ("100", nil as Int?), ("101", 413), (" 5000 ", 413), ("abc", nil),
        ])
    func contentLength(value: String, status: Int?) {
        let refusal = Self.admission.refusal(path: "/v1/answers", authorization: "Bearer s3cret", contentLength: value)
        #expect(refusal.map { Int($0.status.code) } == status)
        let anonymous = Self.admission.refusal(path: "/v1/answers", authorization: nil, contentLength: value)
        #expect(anonymous?.status == .unauthorized)
    }

    @Test("without a token nothing is refused for want of one; an empty token admits nobody")
    func noToken() {
        let open = RequestAdmission(configuration: ServerConfiguration())
        #expect(open.refusal(path: "/v1/answers", authorization: nil, contentLength: "10") == nil)
        let empty = RequestAdmission(configuration: ServerConfiguration(token: ""))
        #expect(empty.refusal(path: "/v1/answers", authorization: "Bearer ", contentLength: nil) != nil)
    }

    @Test("the head timer runs until the first head, and from the first byte of each later request")
    func headDeadline() {
        var deadline = RequestHeadDeadline()
        #expect(deadline.connectionOpened() == .startTimer(.head))
        #expect(deadline.bytesRead() == .none)  // part of the first head, already timed
        #expect(deadline.headReceived() == .takeSlot)
        #expect(deadline.timerFired(.head) == .none)  // a late head timer never closes a served request
        #expect(deadline.bytesRead() == .none)  // the body
        #expect(deadline.requestEnded() == .cancelTimer)
        #expect(deadline.bytesRead() == .none)  // still answering: not a new request's head yet
        #expect(deadline.responseEnded() == .releaseSlot(thenStart: .idle))
        #expect(deadline.timerFired(.head) == .none)  // only the idle timer closes an idle connection
        #expect(deadline.bytesRead() == .startTimer(.head))  // the next request began
        #expect(deadline.bytesRead() == .none)
        #expect(deadline.timerFired(.head) == .close(.head, answering: false))
    }

    /// The deadline of a connection that just opened: its head timer runs.
    static func openedConnection() -> RequestHeadDeadline {
        var deadline = RequestHeadDeadline()
        _ = deadline.connectionOpened()
        return deadline
    }

    @Test("an early response waits for the request's end before the connection is idle")
    func earlyResponse() {
        var deadline = Self.openedConnection()
        _ = deadline.headReceived()
        #expect(deadline.responseEnded() == .none)
        #expect(deadline.bytesRead() == .none)  // body bytes still coming: not a new head
        #expect(deadline.requestEnded() == .releaseSlot(thenStart: .idle))
        #expect(deadline.bytesRead() == .startTimer(.head))
    }

    @Test("pipelined requests keep the connection busy until every response ended")
    func pipelined() {
        var deadline = Self.openedConnection()
        #expect(deadline.headReceived() == .takeSlot)
        _ = deadline.requestEnded()
        #expect(deadline.headReceived() == .startTimer(.body))
        _ = deadline.requestEnded()
        _ = deadline.responseEnded()
        #expect(deadline.bytesRead() == .none)
        #expect(deadline.responseEnded() == .releaseSlot(thenStart: .idle))
        #expect(deadline.bytesRead() == .startTimer(.head))
    }

    @Test("a refusal or a close ends the timing")
    func finished() {
        var deadline = Self.openedConnection()
        #expect(deadline.finished() == .cancelTimer)
        #expect(deadline.bytesRead() == .none)
        #expect(deadline.timerFired(.head) == .none)
    }
}
