extension Duration {
    /// This duration in seconds, as a `Double`: for SQL intervals, Foundation's `TimeInterval`,
    /// figures and messages. (CadencePacing, which depends on no other module, keeps its own
    /// `milliseconds` for its rate arithmetic.)
    package var seconds: Double { self / .seconds(1) }

    /// This duration in milliseconds, as a `Double`.
    package var milliseconds: Double { self / .milliseconds(1) }

    /// The seconds of this duration as a message writes them: `5` for whole seconds, `1.5` otherwise.
    package var secondsText: String {
        let value = seconds
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
