import Foundation

/// Headless Chromium from the system's packages (`/usr/bin/chromium`), for tests of what a real
/// browser does with a server: it opens a page whose script does its work and reports back to the
/// test (by a request to the page's own server, say), and is closed once the test has what it
/// waited for.
///
/// ```swift
/// guard let chromium = HeadlessChromium.find() else { return }   // not installed: skip, saying so
/// let report = try await chromium.visit(page.baseURL + "/") {
///     await reports.first { _ in true }                         // what the page posted back
/// }
/// ```
package struct HeadlessChromium: Sendable {
    /// The browser's executable.
    package let path: String

    /// The installed browser, or `nil` when there is none.
    package static func find() -> HeadlessChromium? {
        (SystemTool.find("chromium") ?? SystemTool.find("chromium-browser")).map { HeadlessChromium(path: $0) }
    }

    /// Opens `url` in a new, empty profile, waits for `outcome`, closes the browser and returns what
    /// `outcome` returned. If `outcome` has not returned within `deadline` (real time: the page's
    /// script never reported), it is cancelled and this throws, with what the browser printed.
    package func visit<T: Sendable>(
        _ url: String, deadline: Duration = .seconds(30), until outcome: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-chromium-\(UUID())").path
        let log = profile + ".log"
        defer {
            try? FileManager.default.removeItem(atPath: profile)
            try? FileManager.default.removeItem(atPath: log)
        }
        let arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--user-data-dir=\(profile)", url,
        ]
        let pid = try ChildProcess.spawn(
            path, arguments, environment: [:], directory: nil,
            streams: [
                .file("/dev/null", O_RDONLY), .file("/dev/null", O_WRONLY), .file(log, O_WRONLY | O_CREAT | O_TRUNC),
            ])
        let value: T
        do {
            value = try await Self.first(of: outcome, within: deadline) {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                return TestServerError(
                    "chromium showed \(url) for \(deadline) and the page did not report; it said: \(said.suffix(2_000))"
                )
            }
        } catch {
            try await SystemTool.onThread { Self.stop(pid) }
            throw error
        }
        try await SystemTool.onThread { Self.stop(pid) }
        return value
    }

    /// What `outcome` returns, or `timeout()` thrown if that takes longer than `deadline`.
    private static func first<T: Sendable>(
        of outcome: @escaping @Sendable () async throws -> T, within deadline: Duration,
        timeout: () -> any Error
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await outcome() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw timeout() }
            return value
        }
    }

    /// Ends the browser: SIGTERM (it closes its own helper processes), SIGKILL if it is still
    /// running five seconds later; then reaps it.
    private static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    }
}
