import ArgumentParser

/// `cadence`: streams AI answers from the network to the terminal, reliably and smoothly.
@main
struct Cadence: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cadence",
        abstract: "Stream cited AI answers from the network to your terminal, reliably and smoothly.",
        discussion: """
            Start with `cadence demo`: it runs an embedded research server with a built-in corpus and \
            streams a cited answer, with no configuration.
            """,
        subcommands: [
            DemoCommand.self, AskCommand.self, ChatCommand.self, ServeCommand.self, DecodeCommand.self, RenderCommand.self, PaceCommand.self,
        ]
    )
}
