import CadenceBenchmarkKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One benchmark of `CadenceBenchmarks`: its name, a line about it, the `--name value` options it
/// takes, and how to run it with the cases asked for (`sse.tokens` → ["tokens"]; [] for all).
struct Benchmark: Sendable {
    let name: String
    let summary: String
    let options: Set<String>
    let run: @MainActor (_ cases: [String], _ options: Options) async throws -> Void

    init(
        _ name: String, _ summary: String, options: Set<String> = [],
        run: @escaping @MainActor (_ cases: [String], _ options: Options) async throws -> Void
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.run = run
    }
}

/// The command line of `CadenceBenchmarks`: benchmark names (with an optional `.case`), `--json`,
/// `--list`, and the `--name value` options of the benchmarks named.
struct BenchmarkCommand {
    private let selected: [(benchmark: Benchmark, cases: [String])]
    private let options: Options
    let listsBenchmarks: Bool

    init(_ arguments: [String], benchmarks: [Benchmark]) throws {
        var names: [(name: String, case: String?)] = []
        var optionArguments: [String] = []
        var lists = false
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--list", "--help", "-h": lists = true
            case "--json": optionArguments.append(argument)
            case _ where argument.hasPrefix("--"):
                optionArguments.append(argument)
                if let value = iterator.next() { optionArguments.append(value) }
            default:
                names.append(
                    (
                        String(argument.prefix { $0 != "." }),
                        argument.contains(".") ? String(argument.drop { $0 != "." }.dropFirst()) : nil
                    ))
            }
        }
        if let unknown = names.first(where: { name in !benchmarks.contains { $0.name == name.name } }) {
            throw BenchmarkError(
                "unknown benchmark \(unknown.name); known: \(benchmarks.map(\.name).joined(separator: ", "))")
        }
        selected = benchmarks.compactMap { benchmark in
            let mine = names.filter { $0.name == benchmark.name }
            guard names.isEmpty || !mine.isEmpty else { return nil }
            return (benchmark, mine.contains { $0.case == nil } ? [] : mine.compactMap(\.case))
        }
        let known = selected.reduce(into: Set<String>()) { $0.formUnion($1.benchmark.options) }
        options = try Options(optionArguments, known: known)
        listsBenchmarks = lists
    }

    /// Runs the benchmarks asked for, in the order of the list. With `--json`, what they print goes
    /// to standard error and each one's reported figures to standard output, one JSON object a line.
    @MainActor
    func run() async throws {
        let output = options.json ? StandardOutput.divertedToStandardError() : nil
        defer { output?.restore() }
        for (benchmark, cases) in selected {
            _ = ReportedFigures.shared.take()
            try await benchmark.run(cases, options)
            var figures = Figures()
            figures.add("benchmark", benchmark.name)
            figures.append(contentsOf: ReportedFigures.shared.take())
            output?.emit(figures.json + "\n")
        }
    }
}

/// Standard output set aside while `print` goes to standard error, for `--json`.
struct StandardOutput {
    private let saved: Int32

    static func divertedToStandardError() -> StandardOutput {
        fflush(nil)
        let saved = dup(1)
        dup2(2, 1)
        return StandardOutput(saved: saved)
    }

    /// Writes `text` to the real standard output.
    func emit(_ text: String) {
        fflush(nil)
        Self.write(text, to: saved)
    }

    func restore() {
        fflush(nil)
        dup2(saved, 1)
        close(saved)
    }

    /// Writes all of `text` to `descriptor`, unbuffered.
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { unistdWrite(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// POSIX `write`, under a name that a method called `write` cannot hide.
private func unistdWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
