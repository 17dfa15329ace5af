import CadenceClient
import Testing

/// ``NumberedTask`` is a driver's one current connection or model call: starting the next cancels the
/// last, and every start or close gives a new number, so what an old task still delivers is stale.
@Suite("NumberedTask")
struct NumberedTaskTests {
    @Test func startingTheNextCancelsTheLastAndNumbersIt() async {
        var current = NumberedTask()
        #expect(current.number == 0)
        var started: [Int] = []
        let first = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        current.start { started.append($0); return first }
        #expect(current.number == 1)
        #expect(!first.isCancelled)
        let second = Task<Void, Never> {}
        current.start { started.append($0); return second }
        #expect(first.isCancelled, "the replaced task is cancelled")
        #expect(started == [1, 2])
        #expect(current.number == 2)
    }

    @Test func closingCancelsAndMakesTheNumberStale() async {
        var current = NumberedTask()
        let task = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        current.start { _ in task }
        let delivering = current.number
        current.close()
        #expect(task.isCancelled)
        #expect(current.number != delivering, "what the closed task still delivers carries a stale number")
        current.cancel()  // nothing current: does nothing
        let next = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        current.start { _ in next }
        current.cancel()
        #expect(next.isCancelled)
    }
}
