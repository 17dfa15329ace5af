import CadenceOracles

/// libFuzzer's entry point: checks ``SSESplitOracle`` (the SSE decoder) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    SSESplitOracle.fuzz(data, count)
}
