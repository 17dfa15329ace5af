import Foundation

/// The two Unix-domain socket exchanges the HAProxy harness needs, every one bounded by a deadline:
/// one command on a stream socket (HAProxy's runtime API), and datagrams received on a bound socket
/// (the `sd_notify` readiness message).
enum UnixSocket {
    /// Connects to `path`, sends `command` and a newline, and returns everything read until the
    /// peer closes (the runtime API answers one command a connection, then closes).
    static func exchange(path: String, command: String, deadline: Duration) throws -> String {
        let socket = try open(type: SOCK_STREAM, deadline: deadline)
        defer { close(socket) }
        var address = try self.address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard connected else { throw TestServerError("could not connect to \(path): errno \(errno)") }
        let bytes = Array((command + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestServerError("could not send to \(path): errno \(errno)") }
            sent += count
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw TestServerError("no complete answer from \(path) in time: errno \(errno)") }
            reply += buffer[..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// A datagram socket bound at `path`, to receive `sd_notify` messages.
    final class DatagramReceiver {
        let socket: Int32

        init(path: String) throws {
            let socket = try UnixSocket.open(type: SOCK_DGRAM, deadline: .milliseconds(200))
            var address = try UnixSocket.address(path)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
                }
            }
            guard bound else {
                close(socket)
                throw TestServerError("could not bind \(path): errno \(errno)")
            }
            self.socket = socket
        }

        deinit { close(socket) }

        /// The next datagram, or `nil` when none came within 200 ms.
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
        }
    }

    private static func open(type: __socket_type, deadline: Duration) throws -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(type.rawValue), 0)
        guard socket >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        var timeout = timeval(
            tv_sec: Int(deadline.components.seconds), tv_usec: Int(deadline.components.attoseconds / 1_000_000_000_000))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(socket, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        return socket
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw TestServerError("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
