#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The physical ceiling for any line-based decoder: count the LF bytes with `memchr`, chunk by
/// chunk, and do nothing else.
enum LineFeedScan {
    static func count(_ stream: [UInt8], chunkSize: Int) -> Int {
        stream.withUnsafeBytes { whole in
            var lineFeeds = 0
            var offset = 0
            while offset < whole.count {
                let chunk = UnsafeRawBufferPointer(rebasing: whole[offset..<min(offset + chunkSize, whole.count)])
                lineFeeds += count(in: chunk)
                offset += chunkSize
            }
            return lineFeeds
        }
    }

    static func count(in chunk: UnsafeRawBufferPointer) -> Int {
        guard var cursor = chunk.baseAddress else { return 0 }
        let end = cursor + chunk.count
        var lineFeeds = 0
        while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
            lineFeeds += 1
            cursor = UnsafeRawPointer(found) + 1
        }
        return lineFeeds
    }
}
