import CadenceCore
import CadenceUI
import Foundation

@testable import CadenceTerminal

/// A terminal that records what is written and replays what the test queues as input.
@MainActor
final class FakeTerminal: TerminalDevice {
    var currentSize: TerminalSize
    var written: [String] = []
    var enterCount = 0
    var restoreCount = 0
    let inputs: AsyncStream<TerminalInput>
    let feed: AsyncStream<TerminalInput>.Continuation

    init(size: TerminalSize = TerminalSize(rows: 12, columns: 40)) {
        currentSize = size
        (inputs, feed) = AsyncStream.makeStream(of: TerminalInput.self)
    }

    func enter() throws { enterCount += 1 }
    func restore() { restoreCount += 1 }
    func size() -> TerminalSize { currentSize }
    func write(_ text: String) { written.append(text) }
    func input() -> AsyncStream<TerminalInput> { inputs }
}

/// The screen a terminal would show after `writes`, as plain rows: a tiny interpreter of the
/// codes ``ScreenDiff`` emits (`ESC[r;cH`, `ESC[2K`, `ESC[2J`, SGR ignored).
struct VirtualScreen {
    var rows: [[Character]]
    var row = 0
    var column = 0

    init(size: TerminalSize) {
        rows = Array(repeating: Array(repeating: " ", count: size.columns), count: size.rows)
    }

    mutating func apply(_ text: String) {
        var characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "[" {
                var end = index + 2
                while end < characters.count, !(characters[end].isLetter) { end += 1 }
                let parameters = String(characters[(index + 2)..<end])
                switch characters[end] {
                case "H":
                    let numbers = parameters.split(separator: ";").compactMap { Int($0) }
                    row = (numbers.first ?? 1) - 1
                    column = (numbers.count > 1 ? numbers[1] : 1) - 1
                case "K":
                    rows[row] = Array(repeating: " ", count: rows[row].count)
                case "J":
                    for r in rows.indices { rows[r] = Array(repeating: " ", count: rows[r].count) }
                default:
                    break
                }
                index = end + 1
                continue
            }
            if column < rows[row].count {
                rows[row][column] = character
                column += DisplayWidth.of(character)
            }
            index += 1
        }
        characters.removeAll()
    }

    var text: [String] {
        rows.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }
}
