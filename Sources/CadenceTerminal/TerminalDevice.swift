/// What comes from the terminal: bytes typed (or pasted, or mouse reports), or a change of size.
///
/// ```swift
/// for await input in terminal.input() {
///     switch input {
///     case .bytes(let bytes): keys += decoder.feed(bytes)
///     case .resized: size = terminal.size()
///     }
/// }
/// ```
public enum TerminalInput: Sendable, Hashable {
    case bytes([UInt8])
    case resized
}

/// The terminal ``TerminalChatApp`` draws on: ``RawTerminal`` for the real one, a recording
/// double in tests.
///
/// ```swift
/// let terminal: any TerminalDevice = RawTerminal()
/// try terminal.enter()
/// defer { terminal.restore() }
/// terminal.write(ScreenDiff.fullRedraw(frame))
/// ```
@MainActor
public protocol TerminalDevice: AnyObject {
    /// Takes over the terminal (raw mode, alternate screen, mouse and paste reporting).
    func enter() throws
    /// Gives the terminal back as it was; safe to call more than once.
    func restore()
    /// The current size.
    func size() -> TerminalSize
    /// Writes bytes to the screen, all of them, at once.
    func write(_ text: String)
    /// The input, until the terminal closes it. Call once.
    func input() -> AsyncStream<TerminalInput>
}
