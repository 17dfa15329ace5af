import CadenceOracles
import Testing

/// The fuzzers' inputs for the display pacer (`Fuzz/Regressions/pacer`): on the oracle's own clock,
/// it never shows more than arrived, never goes back, and shows everything within its end drain.
@Suite struct FuzzRegressionTests {
    static let inputs = RegressionInput.all(DisplayPacerOracle.self)

    @Test func inputsAreLoaded() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs)
    func pacerKeepsItsPromises(_ input: RegressionInput) throws {
        try input.check()
    }
}
