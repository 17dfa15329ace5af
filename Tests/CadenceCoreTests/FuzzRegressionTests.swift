import CadenceOracles
import Testing

/// The inputs the fuzzers found (or that are worth keeping), for every fuzz target (the decoders in
/// CadenceCore, the markdown parser, the display pacer and the terminal's key decoder), each checked
/// by the oracle of the target that found it. CI runs these; the fuzzers themselves live in `Fuzz/`.
/// One suite for every target: the oracles all live in CadenceOracles, and replaying a saved input
/// is the same for each, so it is written once here rather than once per test target.
@Suite struct FuzzRegressionTests {
    static let inputs = RegressionInput.all(
        SSESplitOracle.self, NDJSONSplitOracle.self, OpenAIChatSplitOracle.self, OpenAIResponsesSplitOracle.self,
        AnthropicSplitOracle.self, GeminiSplitOracle.self, OllamaSplitOracle.self, ResearchEventRoundTripOracle.self,
        ResearchReplyOracle.self, MarkdownIncrementalOracle.self, MarkdownWorkOracle.self, DisplayPacerOracle.self,
        KeyDecoderSplitOracle.self)

    @Test func everyTargetHasInputs() {
        let targets = Set(Self.inputs.map(\.target))
        #expect(targets.count == 13, "targets with inputs: \(targets.sorted())")
    }

    /// Markdown: incremental parsing equals a full parse for the split each input's header chooses,
    /// and the parsing work on a repeated unit grows linearly.
    /// Pacer: on the oracle's own clock it never shows more than arrived, never goes back, and shows
    /// everything within its end drain. Keys: the same keys for any split. Decoders: the same output
    /// for any chunking, and research events survive a round trip. Model replies: read in linear work.
    @Test(arguments: inputs)
    func oracleHolds(_ input: RegressionInput) throws {
        try input.check()
    }
}
