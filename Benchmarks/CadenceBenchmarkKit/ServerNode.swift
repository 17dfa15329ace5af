import CadenceServer
import Foundation

/// The server side of a benchmark, run as a child process (`CADENCE_BENCHMARK node`, see
/// ``NodeProcess``) so that its memory and CPU time can be read alone from `/proc/PID`: one
/// ``ReferenceServer`` answering with a ``TimestampEngine``, in memory or through PostgreSQL.
///
/// It prints `port N` once it accepts connections, then obeys its standard input: `go` opens the
/// start gate (every answer begins producing), `end` opens the end gate (answers holding their end
/// complete), `quit` or the end of input shuts it down.
package enum ServerNode {
    /// Runs a node with the options after `node`: `[--postgres URL]`.
    package static func run(arguments: some Sequence<String>) async throws {
        let options = try Options(arguments, known: ["postgres"], flags: [])
        try await run(postgresURL: options.string("postgres"))
    }

    static func run(postgresURL: String?) async throws {
        raiseOpenFileLimit()
        let (gate, end) = (EngineGate(), EngineGate())
        var configuration = ServerConfiguration()
        configuration.port = 0
        // Every reader comes from this machine's one address: the default cap of 64 connections per
        // client address would refuse the 65th.
        configuration.maxConnectionsPerClient = nil
        if let postgresURL { configuration.postgres = try PostgresConfiguration(url: postgresURL) }
        let running = try await ReferenceServer(
            engine: TimestampEngine(gate: gate, end: end), configuration: configuration
        )
        .start()
        FileHandle.standardOutput.write(Data("port \(running.port)\n".utf8))
        for await line in StandardInputLines.stream() {
            if line == "go" { gate.open() }
            if line == "end" { end.open() }
            if line == "quit" { break }
        }
        await running.shutdown()
    }
}

/// The lines of standard input, read on a thread of their own so that a blocking `read` never holds
/// one of the two threads of Swift's cooperative pool.
package enum StandardInputLines {
    package static func stream() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            while let line = readLine() { continuation.yield(line.trimmingCharacters(in: .whitespaces)) }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
