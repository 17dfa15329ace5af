import CadenceOracles

/// libFuzzer's entry point: checks ``OpenAIChatSplitOracle`` (OpenAI Chat Completions streams) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    OpenAIChatSplitOracle.fuzz(data, count)
}
