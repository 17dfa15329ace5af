import CadenceBenchmarkKit
import Foundation

/// A floor server as a child process, `CadenceFanout floor-node [--hummingbird]`: ``FloorServer``, or
/// with `--hummingbird` the second floor, ``HummingbirdFloor``. Started and driven like a Cadence node
/// (``NodeProcess``): it prints `port N` once it accepts connections, then `go` on standard input
/// starts every answer, and `quit` or the end of input stops it.
enum FloorNode {
    static func run(arguments: some Sequence<String>) async throws {
        let options = try Options(arguments, known: [], flags: ["hummingbird"])
        raiseOpenFileLimit()
        let (port, production, stop): (Int, FloorProduction, () async -> Void)
        if options.flags.contains("hummingbird") {
            let floor = try await HummingbirdFloor.start()
            (port, production, stop) = (floor.server.port, floor.production, floor.server.shutdown)
        } else {
            let floor = try await FloorServer.start()
            (port, production, stop) = (floor.port, floor.production, floor.stop)
        }
        FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
        for await line in StandardInputLines.stream() {
            if line == "go" { production.go() }
            if line == "quit" { break }
        }
        await stop()
    }
}
