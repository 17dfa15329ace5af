import NIOConcurrencyHelpers

/// The server's connection counts, shared by every connection on every event loop: how many each
/// client address has open (`--max-connections-per-client`), and how many are busy, that is have
/// sent a complete request whose response is not finished, or are WebSockets (`--max-connections`).
///
/// Only busy connections count against `--max-connections`: a connection that only opens, or rests
/// between requests, is bounded by the request and idle timeouts and by the per-client cap instead,
/// so a client that opens many connections and then stays silent keeps nobody else out.
///
/// ```swift
/// let ledger = ConnectionLedger(maxBusy: 1, maxPerClient: 2)
/// ledger.open(from: "10.0.0.1")   // true
/// ledger.open(from: "10.0.0.1")   // true
/// ledger.open(from: "10.0.0.1")   // false: that address has 2 open
/// ledger.takeBusySlot()           // true
/// ledger.takeBusySlot()           // false: 1 busy already
/// ledger.releaseBusySlot()
/// ledger.close(from: "10.0.0.1")
/// ```
final class ConnectionLedger: Sendable {
    private struct Counts {
        var openByAddress: [String: Int] = [:]
        var busy = 0
    }

    private let counts = NIOLockedValueBox(Counts())
    /// The most busy connections at once; `nil` for no limit.
    let maxBusy: Int?
    /// The most connections open at once from one client address; `nil` for no limit.
    let maxPerClient: Int?

    init(maxBusy: Int?, maxPerClient: Int?) {
        self.maxBusy = maxBusy
        self.maxPerClient = maxPerClient
    }

    /// Counts a connection from `address`, or returns `false` (counting nothing) when that address
    /// already has ``maxPerClient`` open. A connection without an address (a Unix socket, a test's
    /// embedded channel) is not limited.
    func open(from address: String?) -> Bool {
        guard let address else { return true }
        return counts.withLockedValue { counts in
            let open = counts.openByAddress[address, default: 0]
            if let maxPerClient, open >= maxPerClient { return false }
            counts.openByAddress[address] = open + 1
            return true
        }
    }

    /// A connection counted by ``open(from:)`` closed.
    func close(from address: String?) {
        guard let address else { return }
        counts.withLockedValue { counts in
            let open = counts.openByAddress[address, default: 0] - 1
            counts.openByAddress[address] = open > 0 ? open : nil
        }
    }

    /// Takes a place for one more busy connection, or returns `false` when ``maxBusy`` are busy.
    func takeBusySlot() -> Bool {
        counts.withLockedValue { counts in
            if let maxBusy, counts.busy >= maxBusy { return false }
            counts.busy += 1
            return true
        }
    }

    /// Gives back a place taken with ``takeBusySlot()``.
    func releaseBusySlot() {
        counts.withLockedValue { $0.busy = max(0, $0.busy - 1) }
    }

    /// How many connections are busy now.
    var busyConnections: Int { counts.withLockedValue { $0.busy } }

    /// How many connections `address` has open now.
    func openConnections(from address: String) -> Int {
        counts.withLockedValue { $0.openByAddress[address, default: 0] }
    }
}
