import Foundation

/// Runs `body` on a thread with a 512 KiB stack, the smallest a Swift test may run on, and returns
/// its result: code whose recursion grows with its input (10⁵ nested quotes, a 10⁵-deep JSON value)
/// overflows it and crashes the test, instead of passing on a main thread's 8 MiB.
///
/// ```swift
/// let tree = onSmallStack { MarkdownParser().parse(String(repeating: ">", count: 100_000)) }
/// ```
public func onSmallStack<T>(_ body: @escaping () -> T) -> T {
    let box = SmallStackBox(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = box.body()
        done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    return box.result!
}

/// Hands the work to the small-stack thread and its result back (the semaphore orders the accesses).
private final class SmallStackBox<T>: @unchecked Sendable {
    let body: () -> T
    var result: T?
    init(_ body: @escaping () -> T) { self.body = body }
}
