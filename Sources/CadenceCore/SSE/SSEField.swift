/// The field a line names, as far as the SSE standard cares: names are case-sensitive.
enum SSEField: Equatable {
    case data, event, id, retry
    /// A line starting with a colon.
    case comment
    /// Any other name, which the standard ignores.
    case ignored

    /// Matches the `count` bytes of a field name at `name`.
    @inline(__always)
    init(name: UnsafePointer<UInt8>, count: Int) {
        switch count {
        case 0:
            self = .comment
        case 2:
            self = name[0] == 0x69 && name[1] == 0x64 ? .id : .ignored  // "id"
        case 4:
            self = UnsafeRawPointer(name).loadUnaligned(as: UInt32.self) == Self.dataWord ? .data : .ignored
        case 5:
            let word = UnsafeRawPointer(name).loadUnaligned(as: UInt32.self)
            if word == Self.evenWord && name[4] == 0x74 {  // "even" + "t"
                self = .event
            } else if word == Self.retrWord && name[4] == 0x79 {  // "retr" + "y"
                self = .retry
            } else {
                self = .ignored
            }
        default:
            self = .ignored
        }
    }

    /// Whether the five bytes at `line` are `data:`.
    @inline(__always)
    static func startsWithDataColon(_ line: UnsafePointer<UInt8>) -> Bool {
        UnsafeRawPointer(line).loadUnaligned(as: UInt32.self) == dataWord && line[4] == 0x3A
    }

    /// Four bytes as the native-endian word `loadUnaligned` reads from memory.
    private static func word(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
        UInt32(littleEndian: UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24)
    }

    private static var dataWord: UInt32 { word(0x64, 0x61, 0x74, 0x61) }
    private static var evenWord: UInt32 { word(0x65, 0x76, 0x65, 0x6E) }
    private static var retrWord: UInt32 { word(0x72, 0x65, 0x74, 0x72) }
}
