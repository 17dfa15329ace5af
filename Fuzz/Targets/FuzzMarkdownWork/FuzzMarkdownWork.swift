import CadenceOracles

/// libFuzzer's entry point: checks ``MarkdownWorkOracle`` (the markdown parser's work stays linear) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    MarkdownWorkOracle.fuzz(data, count)
}
