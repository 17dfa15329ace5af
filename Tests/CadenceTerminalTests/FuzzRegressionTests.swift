import CadenceOracles
import Testing

/// The fuzzers' inputs for the key decoder (`Fuzz/Regressions/keys`): the same keys for any split.
@Suite struct FuzzRegressionTests {
    static let inputs = RegressionInput.all(KeyDecoderSplitOracle.self)

    @Test func inputsAreLoaded() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func keysDoNotDependOnReads(_ input: RegressionInput) throws {
        try input.check()
    }
}
