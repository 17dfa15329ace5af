import Testing

@testable import CadenceWeb

/// A few connections per host: the third fetch from a host waits for a turn, other hosts do not,
/// and a waiter that is cancelled leaves the queue.
@Suite struct HostSlotsTests {
    @Test func theThirdWaitsForATurn() async throws {
        let slots = HostSlots(limit: 2)
        try await slots.acquire("a.example")
        try await slots.acquire("a.example")
        try await slots.acquire("b.example")  // another host has turns of its own
        let third = Task { try await slots.acquire("a.example") }
        for _ in 0..<100 { await Task.yield() }
        #expect(slots.busy("a.example") == 2)
        slots.release("a.example")
        try await third.value  // handed the released turn
        #expect(slots.busy("a.example") == 2)
        slots.release("a.example")
        slots.release("a.example")
        #expect(slots.busy("a.example") == 0)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let slots = HostSlots(limit: 1)
        try await slots.acquire("a.example")
        let waiter = Task { try await slots.acquire("a.example") }
        for _ in 0..<100 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        slots.release("a.example")
        #expect(slots.busy("a.example") == 0)  // the turn went to no one
    }
}
