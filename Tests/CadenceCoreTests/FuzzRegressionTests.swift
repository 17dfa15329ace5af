import CadenceOracles
import Testing

/// The inputs the fuzzers found (or that are worth keeping) for the decoders in CadenceCore, checked
/// by the oracle of the target that found them. CI runs these; the fuzzers themselves live in `Fuzz/`.
@Suite struct FuzzRegressionTests {
    static let inputs = RegressionInput.all(
        SSESplitOracle.self, NDJSONSplitOracle.self, OpenAIChatSplitOracle.self, OpenAIResponsesSplitOracle.self,
        AnthropicSplitOracle.self, GeminiSplitOracle.self, OllamaSplitOracle.self, ResearchEventRoundTripOracle.self)

    @Test func everyTargetHasInputs() {
        let targets = Set(Self.inputs.map(\.target))
        #expect(targets.count == 8, "targets with inputs: \(targets.sorted())")
    }

    @Test(arguments: inputs)
    func oracleHolds(_ input: RegressionInput) throws {
        try input.check()
    }
}
