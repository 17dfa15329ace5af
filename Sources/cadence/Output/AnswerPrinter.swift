import CadenceCore

/// Prints one answer's research events as they stream: stage lines, the text, then the sources.
///
/// In plain mode only the text and the numbered sources are printed.
struct AnswerPrinter {
    let output: TerminalOutput
    let showsStages: Bool
    private(set) var text = ""
    private(set) var sources: [Source] = []
    private(set) var completion: Completion?
    private(set) var serverError: (code: String, message: String)?
    private var inText = false

    init(output: TerminalOutput, showsStages: Bool) {
        self.output = output
        self.showsStages = showsStages
    }

    mutating func handle(_ event: ResearchEvent) {
        switch event.kind {
        case .token(let token):
            if !inText, showsStages { output.line() }
            inText = true
            text += token
            output.write(token)
        case .sourcesReady(let ready):
            merge(ready)
            stage(event.kind.stageDescription)
        case .complete(let completed):
            completion = completed
            merge(completed.sources)
        case .error(let code, let message):
            serverError = (code, message)
        case .flushTokens, .unknown:
            break
        default:
            stage(event.kind.stageDescription)
        }
    }

    private mutating func merge(_ more: [Source]) {
        for source in more where !sources.contains(where: { $0.url == source.url }) {
            sources.append(source)
        }
    }

    private func stage(_ description: String?) {
        guard showsStages, let description, !inText else { return }
        output.line(output.dim("· \(description)"))
    }

    /// Ends the text and prints the numbered sources and follow-up questions.
    func finish() {
        if !text.isEmpty, !text.hasSuffix("\n") { output.line() }
        if !sources.isEmpty {
            output.line()
            output.line(output.bold("Sources"))
            for (index, source) in sources.enumerated() {
                let number = output.cyan("[\(Int(source.id) ?? index + 1)]")
                output.line("  \(number) \(source.title) — \(output.dim(source.url))")
            }
        }
        if showsStages, let followUps = completion?.followUps, !followUps.isEmpty {
            output.line()
            output.line(output.bold("Follow-up questions"))
            for question in followUps { output.line("  • \(question)") }
        }
    }
}
