import HTTPTypes
import NIOCore
import NIOHTTP1

/// Sees every request head of a connection right after the HTTP decoder, before the WebSocket
/// upgrade handler and Hummingbird: refuses the heads ``BrowserPolicy`` refuses (421, 403), then
/// those ``RequestAdmission`` refuses (401, 413), then a `POST` body that is not JSON (415), all
/// without reading their bodies; answers the CORS preflights of allowed origins (204) and adds CORS
/// headers to the responses to them; refuses the requests the server has no place for (503,
/// `--max-connections`); tells the ``RequestHeadTimer`` when heads arrive and responses begin and
/// end; and answers 408 when the timer finds a body too slow (``RequestBodyTimedOut``). A request
/// it serves passes on with the sender's subject in ``Authenticator/subjectHeader`` (replacing any
/// the client sent), unless the subject is over its rate (429).
///
/// A JSON Web Token is verified off the event loop (its RSA or ECDSA check is CPU work, and jwt-kit's
/// verification is `async`): while it runs, the connection reads nothing more, what was already read
/// waits here in order, and the verdict comes back to the event loop before anything passes on.
///
/// A refusal is the server's JSON error with `Connection: close`; the rest of the refused request
/// is dropped unread and the connection is closed once the response is out. A preflight's answer
/// ends its connection the same way. A refusal of a pipelined request waits for the responses
/// before it, so nothing interleaves on the wire.
///
/// After a WebSocket upgrade the connection carries frames, not HTTP parts: anything that is not an
/// HTTP part passes through untouched (so its types are `Any`).
///
/// It also closes a connection that has not sent a whole request head when the server begins to
/// shut down. Hummingbird stops an HTTP/1 connection on NIO's `ChannelShouldQuiesceEvent` in a
/// handler that the WebSocket-upgrading pipeline adds only when the first request head arrives, so
/// the event that reaches a connection before then would be lost, and the server would wait for
/// that connection: until the request read timeout if it never sends a whole head, and if its first
/// request comes just after the event, for as long as the client keeps it open as an idle keep-alive
/// (ten minutes in AsyncHTTPClient's shared client; `cadence demo` hung after Ctrl-C that way). The
/// event is handled on the connection's event loop, in order with its reads: a head that arrives
/// first is served, and nothing slips in after the close. After the first head the event passes on
/// to Hummingbird's handler (an idle connection stops at once, a busy one after its response; a
/// WebSocket stops with the server). The event can also reach a connection just accepted, before
/// this handler is added (NIO sets the pipeline up in a task of its own), and then it is lost too;
/// but the listener closed before the event was sent, so a connection set up after that is closed
/// as well (`stopping` at ``RequestGuard/install(on:)``).
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias InboundOut = Any
    typealias OutboundIn = Any
    typealias OutboundOut = HTTPServerResponsePart

    private let admission: RequestAdmission
    private let browser: BrowserPolicy
    private let rateLimiter: SubjectRateLimiter?
    private let timer: RequestHeadTimer
    private let metrics: ServerMetrics
    /// One entry for each request passed on whose response has not ended, in order (so empty when
    /// no response is owed): the allowed CORS origin its response names, if it came from one.
    private var corsOrigins = CircularBuffer<String?>()
    /// Set once a head is refused: nothing more is read from the connection.
    private var refused = false
    /// A refusal waiting for the responses before it to end.
    private var pendingRefusal: HTTPResponseHead?
    private var pendingBody: ByteBuffer?
    /// Set once a request body timed out and 408 was sent: the response the server was preparing
    /// for it is dropped.
    private var answeredTimeout = false
    /// Whether a request head has arrived: from then on, stopping the connection with the server
    /// is Hummingbird's.
    private var sawRequestHead = false
    /// Whether the server is stopping while no request head has arrived: the connection closes as
    /// soon as it is active.
    private var stopping: Bool
    /// Whether a token is being verified: reads wait, and the parts read meanwhile are `held`.
    private var verifying = false
    private var held: [NIOAny] = []
    /// A read the pipeline asked for while verifying, to ask for once the verdict is in.
    private var readWanted = false
    /// Set when the handler leaves the pipeline: a verdict that comes later is dropped.
    private var removed = false

    init(
        admission: RequestAdmission, browser: BrowserPolicy, rateLimiter: SubjectRateLimiter?,
        timer: RequestHeadTimer, metrics: ServerMetrics, stopping: Bool
    ) {
        self.admission = admission
        self.browser = browser
        self.rateLimiter = rateLimiter
        self.timer = timer
        self.metrics = metrics
        self.stopping = stopping
    }

    func handlerAdded(context: ChannelHandlerContext) {
        closeIfStopping(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        held = []
    }

    func read(context: ChannelHandlerContext) {
        if verifying {
            readWanted = true
            return
        }
        context.read()
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        closeIfStopping(context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is RequestBodyTimedOut {
            answerBodyTimeout(context: context)
            return
        }
        guard event is ChannelShouldQuiesceEvent, !sawRequestHead else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        stopping = true
        closeIfStopping(context)
    }

    /// Closes the connection if the server is stopping before its first request head and the
    /// connection is active. A connection accepted but not yet registered with its event loop
    /// waits for `channelActive`: closing its input before then is not allowed.
    private func closeIfStopping(_ context: ChannelHandlerContext) {
        if stopping, !sawRequestHead, context.channel.isActive { RequestHeadTimer.close(context.channel) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        if verifying {
            held.append(data)
            return
        }
        guard let part = unwrapInboundIn(data) as? HTTPServerRequestPart else {
            context.fireChannelRead(data)
            return
        }
        switch part {
        case .head(let head):
            sawRequestHead = true
            let corsOrigin: String?
            switch browser.verdict(
                method: head.method.rawValue, host: head.headers.first(name: "host"),
                origin: head.headers.first(name: "origin"),
                requestedMethod: head.headers.first(name: "access-control-request-method"))
            {
            case .refuse(let refusal):
                refuse(head, with: refusal, context: context)
                return
            case .answerPreflight(let fields):
                respondAndClose(head, status: .noContent, fields: fields, body: nil, context: context)
                return
            case .serve(let origin):
                corsOrigin = origin
            }
            switch admission.verdict(
                path: head.uri, authorization: head.headers.first(name: "authorization"),
                contentLength: head.headers.first(name: "content-length"))
            {
            case .refuse(let refusal):
                refuse(head, with: refusal, corsOrigin: corsOrigin, context: context)
            case .admit(let subject):
                admit(head, subject: subject, corsOrigin: corsOrigin, context: context)
            case .verify(let token, let verifier):
                verify(head, token: token, with: verifier, corsOrigin: corsOrigin, context: context)
            }
            return
        case .body:
            break
        case .end:
            timer.requestEnded()
        }
        context.fireChannelRead(data)
    }

    /// Passes a head on as `subject`'s, unless its body is not JSON (415), the subject is over its
    /// rate (429) or the server has no place for it (503).
    private func admit(
        _ head: HTTPRequestHead, subject: String?, corsOrigin: String?, context: ChannelHandlerContext
    ) {
        let refusal =
            browser.mediaTypeRefusal(method: head.method.rawValue, contentType: head.headers.first(name: "content-type"))
            ?? subject.flatMap { rateLimiter?.admit($0) }
        if let refusal {
            refuse(head, with: refusal, corsOrigin: corsOrigin, context: context)
            return
        }
        guard timer.headReceived() else {
            refuse(head, with: Self.busy, corsOrigin: corsOrigin, context: context)
            return
        }
        corsOrigins.append(corsOrigin)
        context.fireChannelRead(wrapInboundOut(HTTPServerRequestPart.head(Authenticator.head(head, subject: subject))))
    }

    /// Verifies the token off the event loop, holding the connection's reads until the verdict.
    private func verify(
        _ head: HTTPRequestHead, token: String, with verifier: JWTVerifier, corsOrigin: String?,
        context: ChannelHandlerContext
    ) {
        verifying = true
        let promise = context.eventLoop.makePromise(of: Result<String, APIError>.self)
        promise.completeWithTask { await verifier.subject(of: token) }
        promise.futureResult.assumeIsolated().whenSuccess { [self] verdict in
            guard !removed else { return }
            verifying = false
            switch verdict {
            case .success(let subject): admit(head, subject: subject, corsOrigin: corsOrigin, context: context)
            case .failure(let refusal): refuse(head, with: refusal, corsOrigin: corsOrigin, context: context)
            }
            let parts = held
            held = []
            for part in parts { channelRead(context: context, data: part) }
            context.fireChannelReadComplete()
            if !verifying, readWanted {
                readWanted = false
                context.read()
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let part = unwrapOutboundIn(data) as? HTTPServerResponsePart else {
            context.write(data, promise: promise)
            return
        }
        if answeredTimeout {
            // The 408 is the connection's last response: the one the server was still preparing is dropped.
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        var outgoing = data
        switch part {
        case .head(var head):
            if head.status == .switchingProtocols {
                timer.upgraded()  // a WebSocket now: no more request heads
            } else {
                timer.responseBegan()
            }
            if let origin = corsOrigins.first ?? nil {
                Self.add(BrowserPolicy.responseHeaders(origin: origin), to: &head.headers)
                outgoing = wrapOutboundOut(.head(head))
            }
        case .end:
            if !corsOrigins.isEmpty { corsOrigins.removeFirst() }
            timer.responseEnded()
        case .body:
            break
        }
        context.write(outgoing, promise: promise)
        if case .end = part, corsOrigins.isEmpty, pendingRefusal != nil { sendRefusal(context: context) }
    }

    /// Answers 408 to a request whose body did not arrive within the body timeout, before anything
    /// of its response was sent, and closes the connection.
    private func answerBodyTimeout(context: ChannelHandlerContext) {
        refuse(
            HTTPRequestHead(version: .http1_1, method: .GET, uri: "/"), with: Self.bodyTimedOut, context: context,
            waitingForResponses: false)
        answeredTimeout = true
    }

    /// Refuses the request with the server's JSON error (in OpenAI's shape on its routes,
    /// ``APIError/Shape``); a request from an allowed CORS origin gets
    /// the CORS headers too, so its page can read why. A refusal waits for the responses owed before
    /// it unless `waitingForResponses` is false (a 408 replaces the response being prepared).
    private func refuse(
        _ head: HTTPRequestHead, with error: APIError, corsOrigin: String? = nil, context: ChannelHandlerContext,
        waitingForResponses: Bool = true
    ) {
        metrics.requestRefused(code: error.code)
        var fields = error.headers
        if let corsOrigin { fields.append(contentsOf: BrowserPolicy.responseHeaders(origin: corsOrigin)) }
        fields[.contentType] = "application/json; charset=utf-8"
        respondAndClose(
            head, status: error.status, fields: fields,
            body: ByteBuffer(string: error.jsonText(shape: APIError.Shape(path: head.uri))), context: context,
            waitingForResponses: waitingForResponses)
    }

    /// Answers the request itself, reads nothing more of the connection, and closes it once the
    /// response is out (after the responses owed before it).
    private func respondAndClose(
        _ head: HTTPRequestHead, status: HTTPResponse.Status, fields: HTTPFields, body: ByteBuffer?,
        context: ChannelHandlerContext, waitingForResponses: Bool = true
    ) {
        refused = true
        timer.finished()
        var headers = HTTPHeaders()
        Self.add(fields, to: &headers)
        if let body { headers.add(name: "Content-Length", value: String(body.readableBytes)) }
        headers.add(name: "Connection", value: "close")
        pendingRefusal = HTTPResponseHead(
            version: head.version, status: HTTPResponseStatus(statusCode: Int(status.code)), headers: headers)
        pendingBody = body
        if corsOrigins.isEmpty || !waitingForResponses { sendRefusal(context: context) }
    }

    private static func add(_ fields: HTTPFields, to headers: inout HTTPHeaders) {
        for field in fields { headers.add(name: field.name.canonicalName, value: field.value) }
    }

    private func sendRefusal(context: ChannelHandlerContext) {
        guard let head = pendingRefusal else { return }
        pendingRefusal = nil
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let pendingBody { context.write(wrapOutboundOut(.body(.byteBuffer(pendingBody))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            RequestHeadTimer.close(channel)
        }
    }

    /// The refusal of a request that would make one connection more busy than `--max-connections`.
    static let busy = APIError(
        status: .serviceUnavailable, code: "server_busy",
        message: "the server is busy with its limit of connections; try again shortly",
        headers: [.retryAfter: "1"])

    /// The answer to a request whose body did not arrive within the body timeout.
    static let bodyTimedOut = APIError(
        status: .requestTimeout, code: "request_timeout",
        message: "the request body did not arrive within the server's body timeout")
}
