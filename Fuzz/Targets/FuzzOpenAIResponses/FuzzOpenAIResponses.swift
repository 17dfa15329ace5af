import CadenceOracles

/// libFuzzer's entry point: checks ``OpenAIResponsesSplitOracle`` (OpenAI Responses streams) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    OpenAIResponsesSplitOracle.fuzz(data, count)
}
