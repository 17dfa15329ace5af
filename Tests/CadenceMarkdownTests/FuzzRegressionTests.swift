import CadenceOracles
import Testing

/// The fuzzers' inputs for the markdown parser (`Fuzz/Regressions/markdown`): incremental parsing
/// equals a full parse for the split each input's header chooses.
@Suite struct FuzzRegressionTests {
    static let inputs = RegressionInput.all(MarkdownIncrementalOracle.self)

    @Test func inputsAreLoaded() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func incrementalEqualsFullParse(_ input: RegressionInput) throws {
        try input.check()
    }
}
