/// A driver's one current I/O task (a connection, a model call), numbered so that what a replaced
/// task still delivers can be told apart and dropped.
///
/// ```swift
/// var connection = NumberedTask()
/// connection.start { number in openConnection(number: number, inputs: inputs) }
/// // … an input from connection `n`: act on it only `where n == connection.number`
/// connection.close()  // what it still delivers is stale now
/// ```
package struct NumberedTask: Sendable {
    /// The current task's number; it changes whenever the task is replaced or closed.
    package private(set) var number = 0
    private var task: Task<Void, Never>?

    package init() {}

    /// Cancels the current task, if any, and starts the next one with its number.
    package mutating func start(_ make: (_ number: Int) -> Task<Void, Never>) {
        task?.cancel()
        number += 1
        task = make(number)
    }

    /// Cancels the current task; anything it still delivers carries a stale number.
    package mutating func close() {
        task?.cancel()
        task = nil
        number += 1
    }

    /// Cancels the current task, when the driver ends.
    package func cancel() {
        task?.cancel()
    }
}
