import Foundation
import NIOConcurrencyHelpers

/// A TCP proxy on 127.0.0.1 that can freeze a connection mid-response while the server behind it
/// goes on writing (what a stuck proxy or load balancer does to a stream), or cut it at a chosen
/// byte (what a dropped network does). New connections pass through untouched, so a client that
/// resumes on a new connection gets the rest from the server.
///
/// Each accepted connection takes the next queued fault: after forwarding that many bytes from the
/// server to the client, a freeze forwards nothing more (and reads nothing more from the server)
/// until the proxy shuts down; a cut closes both sides at once. Connections with nothing queued
/// pass everything.
///
/// ```swift
/// let proxy = try StallProxy.start(upstreamPort: server.port)
/// proxy.freeze(afterResponseBytes: 1_500)      // the first connection freezes; later ones don't
/// proxy.cut(afterResponseBytes: 300)           // the second one breaks after 300 bytes
/// // … ask through http://127.0.0.1:\(proxy.port) …
/// proxy.shutdown()
/// ```
public final class StallProxy: Sendable {
    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let state = NIOLockedValueBox(State())

    /// What happens to a connection once it has forwarded its bytes.
    enum Fault {
        case freeze(after: Int)
        case cut(after: Int)

        var bytes: Int {
            switch self {
            case .freeze(let bytes), .cut(let bytes): bytes
            }
        }
    }

    struct State {
        var faults: [Fault] = []
        var sockets: [Int32] = []
        var connections = 0
        var frozen = 0
        var responseBytes: [Int] = []
        var closed = false
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Connections accepted so far.
    public var connections: Int { state.withLockedValue { $0.connections } }
    /// Connections that reached their freeze point.
    public var frozenConnections: Int { state.withLockedValue { $0.frozen } }
    /// How many bytes each finished connection forwarded from the server, in the order they ended.
    public var responseBytes: [Int] { state.withLockedValue { $0.responseBytes } }

    private init(port: Int, upstreamPort: Int, listener: Int32) {
        self.port = port
        self.upstreamPort = upstreamPort
        self.listener = listener
    }

    /// Listens on a free loopback port and forwards each connection to `upstreamPort` on 127.0.0.1.
    public static func start(upstreamPort: Int) throws -> StallProxy {
        let listener = socket(AF_INET, streamSocketType, 0)
        guard listener >= 0 else { throw TestServerError("socket: errno \(errno)") }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw TestServerError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let proxy = StallProxy(port: Int(UInt16(bigEndian: address.sin_port)), upstreamPort: upstreamPort, listener: listener)
        Thread.detachNewThread { proxy.acceptLoop() }
        return proxy
    }

    /// The next accepted connection freezes after `bytes` bytes from the server (its response head included).
    public func freeze(afterResponseBytes bytes: Int) {
        state.withLockedValue { $0.faults.append(.freeze(after: bytes)) }
    }

    /// The next accepted connection is closed, both ways, after `bytes` bytes from the server (its
    /// response head included): the client sees its connection break there.
    public func cut(afterResponseBytes bytes: Int) {
        state.withLockedValue { $0.faults.append(.cut(after: bytes)) }
    }

    /// Stops accepting and closes every connection.
    public func shutdown() {
        let sockets = state.withLockedValue { state in
            state.closed = true
            return state.sockets
        }
        shutdownSocket(listener, Int32(SHUT_RDWR))
        close(listener)
        for socket in sockets { shutdownSocket(socket, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let upstream = socket(AF_INET, streamSocketType, 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            let (fault, closed) = state.withLockedValue { state -> (Fault?, Bool) in
                state.connections += 1
                state.sockets += [client, upstream]
                return (state.faults.isEmpty ? nil : state.faults.removeFirst(), state.closed)
            }
            guard connected, !closed else {
                close(client)
                close(upstream)
                continue
            }
            // The second of the two pumps to end closes both sockets (a frozen one never ends).
            let pumps = NIOLockedValueBox(2)
            let ended: @Sendable () -> Void = {
                guard pumps.withLockedValue({ $0 -= 1; return $0 }) == 0 else { return }
                self.state.withLockedValue { $0.sockets.removeAll { $0 == client || $0 == upstream } }
                close(client)
                close(upstream)
            }
            Thread.detachNewThread {
                self.pump(from: client, to: upstream, fault: nil)
                ended()
            }
            Thread.detachNewThread {
                let forwarded = self.pump(from: upstream, to: client, fault: fault)
                self.state.withLockedValue { $0.responseBytes.append(forwarded) }
                ended()
            }
        }
    }

    /// Copies bytes until either side closes, or until the fault's bytes: then a freeze holds the
    /// connection open and silent until shutdown, and a cut closes both sides. Returns how many
    /// bytes it forwarded.
    @discardableResult
    private func pump(from source: Int32, to destination: Int32, fault: Fault?) -> Int {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var forwarded = 0
        while true {
            let limit = fault.map { min(buffer.count, $0.bytes - forwarded) } ?? buffer.count
            if limit == 0, case .cut = fault {
                shutdownSocket(destination, Int32(SHUT_RDWR))
                shutdownSocket(source, Int32(SHUT_RDWR))
                return forwarded
            }
            if limit == 0 {
                state.withLockedValue { $0.frozen += 1 }
                return forwarded  // frozen: nothing more is read or written; shutdown closes the sockets
            }
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, limit, 0) }
            if count <= 0 {
                shutdownSocket(destination, Int32(SHUT_WR))
                return forwarded
            }
            var sent = 0
            while sent < count {
                let written = buffer[sent..<count].withUnsafeBytes {
                    send(destination, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { return forwarded + sent }
                sent += written
            }
            forwarded += count
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// `shutdown(2)`, named apart from ``StallProxy/shutdown()``.
private func shutdownSocket(_ socket: Int32, _ how: Int32) {
    _ = shutdown(socket, how)
}

#if os(Linux)
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
#else
private let streamSocketType = SOCK_STREAM
#endif
