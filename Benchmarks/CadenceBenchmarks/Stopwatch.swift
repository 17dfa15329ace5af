import CadenceBenchmarkKit

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

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func leftAligned(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
