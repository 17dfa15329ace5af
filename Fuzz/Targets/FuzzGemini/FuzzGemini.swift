import CadenceOracles

/// libFuzzer's entry point: checks ``GeminiSplitOracle`` (Gemini streams) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    GeminiSplitOracle.fuzz(data, count)
}
