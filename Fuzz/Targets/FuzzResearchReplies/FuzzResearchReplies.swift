import CadenceOracles

/// libFuzzer's entry point: checks ``ResearchReplyOracle`` (the reader of a model's plan and reflection replies) on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    ResearchReplyOracle.fuzz(data, count)
}
