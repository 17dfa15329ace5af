import CadenceCore
import CadenceStore
import Foundation
import Testing

/// A history the user may read but not write: `chat --list` shows it and leaves nothing beside it.
///
/// Root may write any file, so as root the command runs as `nobody` (through `setpriv`), for whom
/// the root-owned files are read-only; as anyone else the files' modes make them so.
@Suite("History: a read-only database")
final class ReadOnlyHistoryTests {
    let folder: URL
    var database: String { folder.appendingPathComponent("history.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Saves one answered conversation and closes the store.
    func saveConversation() async throws -> String {
        let store = try SQLiteConversationStore(path: database)
        let chat = try await store.createConversation(id: "c0ffee000001", title: "Read me only")
        _ = try await store.beginAnswer(id: "a", in: chat.id, query: "What is SSE?")
        try await store.checkpointAnswer("a", appending: "Server-sent events", sources: nil, tier: nil)
        try await store.finishAnswer("a", with: .cancelled(partialText: "Server-sent events are a stream."))
        return chat.id
    }

    /// Runs `cadence ARGUMENTS` as a user who may not write the database.
    func runAsReader(_ arguments: [String]) async throws -> CadenceBinary.Result {
        guard geteuid() == 0 else { return try await CadenceBinary.run(arguments) }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "running as root needs \(setpriv) to drop to nobody")
        let line = ([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", CadenceBinary.url.path] + arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        return try await CadenceBinary.runShell(line)
    }

    func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test(arguments: [false, true])
    func listingLeavesNoFilesBehind(folderWritable: Bool) async throws {
        // Before, `chat --list` failed with "attempt to write a readonly database", and in a folder
        // it could write it left an empty -wal and a -shm beside the file.
        let id = try await saveConversation()
        #expect(try files() == ["history.sqlite"])
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try FileManager.default.setAttributes(
            [.posixPermissions: folderWritable ? 0o777 : 0o555], ofItemAtPath: folder.path)

        let listed = try await runAsReader(["chat", "--list", "--database", database])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        #expect(listed.stdout.hasPrefix(id) && listed.stdout.contains("Read me only"), "stdout: \(listed.stdout)")
        #expect(try files() == ["history.sqlite"], "nothing is left beside the database")

        // Answering needs to write: it says so before asking anything, and still leaves nothing.
        let asked = try await runAsReader(["ask", "--database", database, "--url", "http://127.0.0.1:9", "q"])
        #expect(asked.status == 1 && asked.stderr.contains("is read-only"), "stderr: \(asked.stderr)")
        #expect(try files() == ["history.sqlite"])
    }
}
