import CadenceOracles

/// libFuzzer's entry point: checks ``DisplayPacerOracle`` (the display pacer) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    DisplayPacerOracle.fuzz(data, count)
}
