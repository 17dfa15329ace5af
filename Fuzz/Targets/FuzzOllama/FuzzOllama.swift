import CadenceOracles

/// libFuzzer's entry point: checks ``OllamaSplitOracle`` (Ollama NDJSON streams) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    OllamaSplitOracle.fuzz(data, count)
}
