import CadenceOracles

/// libFuzzer's entry point: checks ``ResearchEventRoundTripOracle`` (the research-event decoder) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    ResearchEventRoundTripOracle.fuzz(data, count)
}
