import CadenceCore
import HTTPTypes
import Hummingbird
import NIOCore

/// Writes a ``FaultServer`` body with its fault: frame by frame, split, cut, stalled or polluted.
struct FaultWriter: Sendable {
    let clock: any Clock<Duration>
    let keepAliveInterval: Duration

    /// Thrown inside the body writer to make the server drop the connection.
    struct InjectedClose: Error {}

    func write(_ bytes: [UInt8], frameEnds: [Int], fault: Fault, to writer: inout any ResponseBodyWriter) async throws {
        switch fault {
        case .none, .status:
            try await write(bytes, 0..<bytes.count, frameEnds: frameEnds, to: &writer)
        case .closeAfter(let count):
            let cut = min(count, bytes.count)
            try await write(bytes, 0..<cut, frameEnds: frameEnds, to: &writer)
            throw InjectedClose()
        case .stall(let offset, let gate, let keepalives):
            let cut = min(offset, bytes.count)
            try await write(bytes, 0..<cut, frameEnds: frameEnds, to: &writer)
            gate.reached.open()
            if keepalives {
                while !gate.released.isOpen {
                    try await clock.sleep(for: keepAliveInterval)
                    try await writer.write(ByteBuffer(string: ResearchEventEncoder.comment("keepalive")))
                }
            } else {
                await gate.released.wait()
            }
            try await write(bytes, cut..<bytes.count, frameEnds: frameEnds, to: &writer)
        case .garbage(let offset, let garbage):
            let cut = min(offset, bytes.count)
            try await write(bytes, 0..<cut, frameEnds: frameEnds, to: &writer)
            try await writer.write(ByteBuffer(bytes: garbage))
            try await write(bytes, cut..<bytes.count, frameEnds: frameEnds, to: &writer)
        case .bytePerWrite:
            for byte in bytes { try await writer.write(ByteBuffer(bytes: [byte])) }
        }
        try await writer.finish(nil)
    }

    /// Writes `range` of `bytes`, one write per SSE frame (a frame cut by the range is written in part).
    private func write(
        _ bytes: [UInt8], _ range: Range<Int>, frameEnds: [Int], to writer: inout any ResponseBodyWriter
    ) async throws {
        var start = range.lowerBound
        for end in frameEnds where end > start {
            let stop = min(end, range.upperBound)
            try await writer.write(ByteBuffer(bytes: bytes[start..<stop]))
            start = stop
            if start >= range.upperBound { return }
        }
        if start < range.upperBound { try await writer.write(ByteBuffer(bytes: bytes[start..<range.upperBound])) }
    }

    static func errorResponse(status: Int, headers: [String: String]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        let body = JSONValue.object([
            "error": ["code": "injected_fault", "message": .string("the fault server answered \(status) on purpose")]
        ])
        return Response(
            status: HTTPResponse.Status(code: status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: body.jsonText)))
    }
}
