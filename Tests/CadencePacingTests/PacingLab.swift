import CadencePacing
import Foundation

/// The pacing lab next to the repository (`../shared/pacing`; CI has it): its public traces, and
/// held-out traces it generates for any seed.
enum PacingLab {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/pacing")
    static let isAvailable = FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("traces-public").path)

    /// A public trace (`steady`, `bursty`, `cached-5000`, `fast-1200cps`; generator seed 42).
    static func publicTrace(_ name: String) throws -> PacingTrace {
        try PacingTrace.load(path: directory.appendingPathComponent("traces-public/\(name).json").path)
    }

    /// Held-out traces the lab generates for `seed` (`export-traces --holdout`) into a temporary
    /// folder: besides the four public shapes, `cjk-emoji-seedS` (CJK, Hangul, emoji ZWJ sequences
    /// and decomposed accents cut into 1–4 scalar tokens) and `markdown-code-seedS` (a list, a
    /// 20-line code block, a table and a 2 s stall).
    static func heldOutTraces(seed: Int, names: [String]) throws -> [PacingTrace] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cadence-traces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", directory.appendingPathComponent("pacing_lab.py").path, "export-traces", "--holdout", "--seed",
            "\(seed)", "--out", folder.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PacingError(.invalidTrace, "export-traces exited \(process.terminationStatus)")
        }
        return try names.map {
            try PacingTrace.load(path: folder.appendingPathComponent("\($0)-seed\(seed).json").path)
        }
    }
}
