import Foundation

/// Where the system's programs are, and the free loopback ports the harnesses give them.
enum SystemTool {
    /// The first executable `name` in `preferred` folders, then on `PATH`, then in the sbin folders
    /// (which a non-root `PATH` often lacks: Debian installs `haproxy` and `runuser` there).
    static func find(_ name: String, preferring preferred: [String] = []) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let folders = preferred + path + ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/bin", "/bin"]
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

    /// Whether this process runs as root (then PostgreSQL's tools must run as another user).
    static var isRoot: Bool { geteuid() == 0 }
}
