import CadenceOracles

/// libFuzzer's entry point: checks ``AnthropicSplitOracle`` (Anthropic Messages streams) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    AnthropicSplitOracle.fuzz(data, count)
}
