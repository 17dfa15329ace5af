import CadenceOracles

/// libFuzzer's entry point: checks ``NDJSONSplitOracle`` (the NDJSON line splitter) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    NDJSONSplitOracle.fuzz(data, count)
}
