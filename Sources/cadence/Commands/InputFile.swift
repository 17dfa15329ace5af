import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The input of `decode` and `render`: a file, or standard input for `-`, read a chunk at a time.
///
/// The commands never hold their whole input: each chunk goes to an incremental decoder or parser
/// and is forgotten, so what they keep is bounded by the decoder's limits, not by the input's size
/// (100 MB with no newline costs the same as 17 MB).
///
/// ```swift
/// try InputFile("-").forEachChunk(atMost: 64 << 10) { bytes in
///     items += try decoder.feed(bytes)
///     return true  // keep reading
/// }
/// ```
struct InputFile {
    /// Bytes asked of each `read(2)`.
    static let readSize = 64 << 10

    let path: String
    private let descriptor: Int32

    /// Opens `path`, or standard input for `-`.
    init(_ path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            return
        }
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Unreadable(path: path, code: errno) }
    }

    /// The input could not be opened or read: not a usage error (exit 1, as `pace` exits for a
    /// trace it cannot read), printed as `Error: cannot read notes.md: No such file or directory`.
    struct Unreadable: Error, CustomStringConvertible {
        let path: String
        /// The `errno` of the failed call.
        let code: Int32

        var description: String {
            "cannot read \(InputFile.name(of: path)): \(String(cString: strerror(code)))"
        }
    }

    /// `path` as messages name it: `standard input` for `-`.
    static func name(of path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// Calls `body` with the input's bytes in order, at most `limit` at a time, until the input ends
    /// or `body` returns `false`. The bytes are valid only during the call.
    func forEachChunk(atMost limit: Int = readSize, _ body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Unreadable(path: path, code: errno)
            }
            if count == 0 { return }
            var start = 0
            while start < count {
                let end = min(start + limit, count)
                guard try body(UnsafeRawBufferPointer(rebasing: buffer[start..<end])) else { return }
                start = end
            }
        }
    }
}
