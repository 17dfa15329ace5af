extension String {
    /// Decodes UTF-8 exactly like `String(decoding: bytes, as: UTF8.self)` (invalid sequences
    /// become U+FFFD the same way, as the WHATWG decoder does), but at close to memory speed on
    /// valid text, ASCII or not.
    ///
    /// The standard library validates a buffer again whenever it makes a `String` of it, one scalar
    /// at a time once it meets a non-ASCII byte: a 64 KB event of prose with an accent every few
    /// words took it about 50 µs. Here ``UTF8Validation`` checks the bytes in bulk, and valid bytes
    /// are copied into the string without a second look (`UTF8Span(unchecked:)`). Only invalid
    /// text, which is rare, takes the standard library's repairing path.
    init(decodingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        // A short string (an event type, an ID) fits in the String itself: the standard library
        // checks it just as fast.
        guard bytes.count > Self.smallStringCapacity else {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        let validation = UTF8Validation.check(bytes)
        guard validation != .invalid else {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        self.init(validUTF8: bytes, isASCII: validation == .ascii)
    }

    /// Decodes the bytes of `slice` in the same way.
    init(decodingUTF8 slice: ArraySlice<UInt8>) {
        self = slice.withUnsafeBufferPointer { String(decodingUTF8: $0) }
    }

    /// The most UTF-8 bytes a `String` holds without allocating, on 64-bit platforms.
    private static var smallStringCapacity: Int { 15 }

    /// Copies `bytes`, which ``UTF8Validation`` found well-formed, into a string without validating
    /// them again.
    private init(validUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            self.init(copying: unsafe UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        } else {
            self = String(decoding: bytes, as: UTF8.self)
        }
    }
}
