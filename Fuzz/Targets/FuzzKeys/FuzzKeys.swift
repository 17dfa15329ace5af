import CadenceOracles

/// libFuzzer's entry point: checks ``KeyDecoderSplitOracle`` (the terminal key decoder) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    KeyDecoderSplitOracle.fuzz(data, count)
}
