/// One key press (or paste, or wheel turn) decoded from the terminal's input bytes by ``KeyDecoder``.
///
/// Control keys arrive as ``control(_:)`` with their lowercase letter (`Ctrl-C` is `.control("c")`),
/// except those with a key of their own: Enter (`Ctrl-M`, `Ctrl-J`), Tab (`Ctrl-I`) and
/// Backspace (`Ctrl-H`).
///
/// ```swift
/// switch key {
/// case .text(let typed): editor.insert(typed)
/// case .enter: send(editor.submit())
/// case .control("c"): cancelOrQuit()
/// case .wheelUp: view.scroll(by: -3, viewportHeight: rows)
/// default: break
/// }
/// ```
public enum KeyEvent: Sendable, Hashable {
    /// Printable text: one or more characters typed (or delivered in one read).
    case text(String)
    /// A bracketed paste, whole, with line endings as `"\n"`.
    case paste(String)
    case enter
    case tab
    /// Backspace: `0x7F` or `0x08`.
    case backspace
    /// The forward-delete key.
    case delete
    case left, right, up, down
    case home, end
    case pageUp, pageDown
    /// The Escape key on its own.
    case escape
    /// A control key, by its lowercase letter: `.control("c")` for Ctrl-C (`0x03`).
    case control(Character)
    /// The mouse wheel turned up (towards older text) or down, with SGR mouse reporting on.
    case wheelUp, wheelDown
}
