import Foundation

/// Where the system's programs are, the free loopback ports the harnesses give them, and a thread to
/// wait for them on.
enum SystemTool {
    /// The first executable `name` in `preferred` folders, then on `PATH`, then in the sbin folders
    /// (which a non-root `PATH` often lacks: Debian installs `haproxy` and `runuser` there).
    static func find(_ name: String, preferring preferred: [String] = []) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let folders =
            preferred + path + ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/bin", "/bin"]
        return folders.lazy.map { ($0 as NSString).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A loopback TCP port that was free a moment ago: the kernel's pick for a socket bound to port 0,
    /// closed again. Another process may take it before the server binds it, so a server that fails
    /// to bind must be started again with a new pick.
    static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw TestServerError("could not bind a loopback socket: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts a server on a ``freeLoopbackPort()``, picking again while another process takes the
    /// port before the server binds it: `start` returns `nil` when its port was taken, and throws
    /// instead on the last of five picks (`lastPick`).
    static func startOnFreeLoopbackPort<Server>(
        _ start: (_ port: Int, _ lastPick: Bool) throws -> Server?
    ) throws -> Server {
        let picks = 5
        for pick in 1...picks {
            if let server = try start(try freeLoopbackPort(), pick == picks) { return server }
        }
        throw TestServerError("another process took each of \(picks) free loopback ports before the server bound it")
    }

    /// Makes a new temporary folder named `prefix-UUID` and runs `body` with its path; removes the
    /// folder again when `body` throws (when it returns, the server it started owns the folder).
    static func inNewTemporaryFolder<T>(
        _ prefix: String, attributes: [FileAttributeKey: Any]? = nil, _ body: (_ folder: String) throws -> T
    ) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())").path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: false, attributes: attributes)
        do {
            return try body(folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Runs blocking work (a child process, a socket exchange) on a thread of its own, off the
    /// cooperative pool that in-process servers in the same test need.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Whether this process runs as root (then PostgreSQL's tools must run as another user).
    static var isRoot: Bool { geteuid() == 0 }
}
