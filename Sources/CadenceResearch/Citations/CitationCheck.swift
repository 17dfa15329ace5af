// PLACEHOLDER written by the lead engineer so the package compiles while the citation processor is
// being written; the helper that owns this file replaces it whole.
public import CadenceCore

public struct CitationCheck: Sendable, Hashable {
    public var ordinal: Int
    public var source: Int
    public var sentence: String
    public var score: Double
    public var supported: Bool
    public var json: JSONValue { [:] }
}
