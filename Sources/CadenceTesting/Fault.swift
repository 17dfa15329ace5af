/// A failure a ``FaultServer`` injects into one response.
///
/// Byte offsets count from the first byte of the response body.
///
/// ```swift
/// server.enqueue(.closeAfter(bytes: 137), .status(429, headers: ["retry-after": "2"]), .none)
/// ```
public enum Fault: Sendable {
    /// A normal, complete response.
    case none
    /// Sends the first `bytes` bytes of the body, then closes the connection abruptly (the offset may
    /// fall inside a multi-byte UTF-8 character or an SSE line).
    case closeAfter(bytes: Int)
    /// Sends the first `afterBytes` bytes, then stalls until the gate is released. With keepalives,
    /// sends `: keepalive` every `keepAliveInterval` (on the server's clock) while stalled.
    case stall(afterBytes: Int, gate: FaultGate, keepalives: Bool = false)
    /// Answers with this status and a JSON error body instead of the stream (500, 503, 429 …).
    case status(Int, headers: [String: String] = [:])
    /// Inserts `bytes` into the body at offset `atByte`, then goes on.
    case garbage(atByte: Int, bytes: [UInt8])
    /// Writes the body one byte per write.
    case bytePerWrite
}
