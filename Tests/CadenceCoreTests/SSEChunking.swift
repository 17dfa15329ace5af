import CadenceCore

/// How a test cuts a byte stream into the chunks it feeds an ``SSEDecoder``.
enum SSEChunking: Hashable, Sendable, CustomStringConvertible {
    /// One chunk.
    case whole
    /// Chunks of this many bytes (the last may be shorter).
    case size(Int)
    /// Cut at these byte offsets.
    case splits([Int])

    /// Whole, every chunk size from 1 to 8, each split alone, and all splits at once.
    static func standard(splits: [Int]) -> [SSEChunking] {
        var all: [SSEChunking] = [.whole] + (1...8).map(SSEChunking.size)
        all += splits.map { .splits([$0]) }
        if splits.count > 1 { all.append(.splits(splits)) }
        return all
    }

    func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [bytes[...]]
        case .size(let size):
            return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
        case .splits(let offsets):
            let cuts = [0] + offsets.sorted().filter { $0 > 0 && $0 < bytes.count } + [bytes.count]
            return zip(cuts, cuts.dropFirst()).map { bytes[$0..<$1] }
        }
    }

    var description: String {
        switch self {
        case .whole: "whole"
        case .size(let size): "\(size)-byte chunks"
        case .splits(let offsets): "split at \(offsets)"
        }
    }
}

/// Everything a decoder produced from one stream.
struct SSEDecoding {
    var items: [SSEItem] = []
    var error: SSEDecoderError?

    var events: [SSEEvent] {
        items.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    var comments: [String] {
        items.compactMap { if case .comment(let text) = $0 { text } else { nil } }
    }

    var retries: [Int] {
        items.compactMap { if case .retry(let milliseconds) = $0 { milliseconds } else { nil } }
    }
}

extension SSEDecoder {
    /// Feeds `bytes` cut as `chunking`, then finishes; stops at the first error.
    mutating func decode(_ bytes: [UInt8], _ chunking: SSEChunking) -> SSEDecoding {
        var decoding = SSEDecoding()
        do {
            for chunk in chunking.chunks(of: bytes) {
                decoding.items += try feed(chunk)
            }
            decoding.items += try finish()
        } catch {
            decoding.error = error
        }
        return decoding
    }
}

extension SSEDecoder {
    /// Feeds `bytes` cut as `chunking` into one reused ``SSEBatch``, then finishes; stops at the first
    /// error. The items come out as `SSEItem`s, each batch read before it is emptied for the next chunk.
    mutating func decodeIntoBatch(_ bytes: [UInt8], _ chunking: SSEChunking) -> SSEDecoding {
        var decoding = SSEDecoding()
        var batch = SSEBatch()
        do {
            for chunk in chunking.chunks(of: bytes) {
                let fed = Result { () throws(SSEDecoderError) in try feed(chunk, into: &batch) }
                decoding.items += batch.map(SSEItem.init)  // with those before an error
                batch.removeAll()
                try fed.get()
            }
            decoding.items += try finish()
        } catch {
            decoding.error = error
        }
        return decoding
    }
}
