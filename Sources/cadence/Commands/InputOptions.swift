import ArgumentParser

/// A command that reads its input a chunk at a time (`decode`, `render`), and says in its own words
/// what a chunk counts.
protocol ChunkedInputCommand {
    /// The help of `--chunk-size`.
    static var chunkSizeHelp: String { get }
    /// The help of the input file argument.
    static var fileHelp: String { get }
}

/// The input of `decode` and `render`: a file, or standard input for `-`, and `--chunk-size`, how much
/// of it each call of the incremental decoder or parser is given (to check that chunking never
/// changes the output).
struct InputOptions<Command: ChunkedInputCommand>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Command.chunkSizeHelp))
    var chunkSize: Int?

    @Argument(help: ArgumentHelp(Command.fileHelp))
    var file: String = "-"

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
    }

    /// Opens the file, or standard input for `-`.
    func open() throws -> InputFile { try InputFile(file) }
}
