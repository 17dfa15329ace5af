/// Times a body several times; the best run is the least disturbed by a noisy machine.
struct Stopwatch {
    var repetitions = 7

    /// Runs `body` `repetitions` times (after one warm-up run) and returns the fastest time in
    /// seconds, with the body's result so the work cannot be optimised away.
    func best<Result>(_ body: () -> Result) -> (seconds: Double, result: Result) {
        var result = body()
        var best = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            let start = clock.now
            result = body()
            best = min(best, (clock.now - start).seconds)
        }
        return (best, result)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Formats a number with a fixed number of decimals, without Foundation.
func formatted(_ value: Double, decimals: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let have = text.distance(from: dot, to: text.endIndex) - 1
        if have < decimals { text += String(repeating: "0", count: decimals - have) }
        if decimals == 0 { text = String(text[..<dot]) }
    }
    return text
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func leftAligned(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
