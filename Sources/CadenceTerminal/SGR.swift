/// The few escape codes the screen uses, each closed by a reset; none when colours are off.
struct SGR {
    let colors: Bool

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func reverse(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        colors && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
