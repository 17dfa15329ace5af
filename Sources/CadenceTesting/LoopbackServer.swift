package import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird application running on 127.0.0.1 with a free port, for test servers.
package struct LoopbackServer: Sendable {
    package let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    package static func start<Context: RequestContext>(router: Router<Context>, label: String) async throws -> LoopbackServer
    where Context.Source == ApplicationRequestContextSource {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports {
            return LoopbackServer(port: port, group: group, task: task)
        }
        try await task.value
        throw CancellationError()
    }

    package func shutdown() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
