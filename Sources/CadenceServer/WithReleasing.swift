/// Runs `body` with `resource`, then awaits `release(resource)` whether `body` returned or threw:
/// the `defer` that cannot await. For a server or a process started for one piece of work.
///
/// ```swift
/// let running = try await ReferenceServer(engine: engine).start()
/// let answer = try await withReleasing(running, release: { await $0.shutdown() }) { running in
///     try await ask(running.baseURL)
/// }
/// ```
package func withReleasing<Resource: Sendable, T>(
    _ resource: Resource, release: (Resource) async -> Void, isolation: isolated (any Actor)? = #isolation,
    _ body: (Resource) async throws -> T
) async throws -> T {
    do {
        let result = try await body(resource)
        await release(resource)
        return result
    } catch {
        await release(resource)
        throw error
    }
}
