import CadenceBenchmarkKit
import Foundation

/// The floor server (``FloorServer``) as a child process, `CadenceFanout floor-node`, started and
/// driven like a Cadence node (``NodeProcess``): it prints `port N` once it accepts connections, then
/// `go` on standard input starts every answer, and `quit` or the end of input stops it.
enum FloorNode {
    static func run(arguments: some Sequence<String>) async throws {
        _ = try Options(arguments, known: [], flags: [])
        raiseOpenFileLimit()
        let server = try await FloorServer.start()
        FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
        for await line in StandardInputLines.stream() {
            if line == "go" { server.go() }
            if line == "quit" { break }
        }
        await server.stop()
    }
}
