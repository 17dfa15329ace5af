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

    /// Times two bodies side by side: `first` then `second`, `repetitions` times (after one warm-up
    /// run of each), so that both see the machine in the same states. Returns each one's fastest
    /// time in seconds, with its last result.
    func bestOfEach<First, Second>(
        _ first: () -> First, _ second: () -> Second
    ) -> (first: (seconds: Double, result: First), second: (seconds: Double, result: Second)) {
        var results = (first(), second())
        var best = (Double.infinity, Double.infinity)
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            var start = clock.now
            results.0 = first()
            best.0 = min(best.0, (clock.now - start).seconds)
            start = clock.now
            results.1 = second()
            best.1 = min(best.1, (clock.now - start).seconds)
        }
        return ((best.0, results.0), (best.1, results.1))
    }
}

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func leftAligned(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
