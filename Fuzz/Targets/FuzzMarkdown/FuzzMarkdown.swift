import CadenceOracles

/// libFuzzer's entry point: checks ``MarkdownIncrementalOracle`` (the incremental markdown parser) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    MarkdownIncrementalOracle.fuzz(data, count)
}
