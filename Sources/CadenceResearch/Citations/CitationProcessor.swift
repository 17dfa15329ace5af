// PLACEHOLDER written by the lead engineer so the package compiles; replaced whole by its owner.
public struct CitationProcessor: Sendable {
    public init(sources: [String], supportThreshold: Double = CitationSupport.defaultThreshold) {}
    public mutating func feed(_ text: String) -> String { text }
    public mutating func finish() -> String { "" }
    public private(set) var checks: [CitationCheck] = []
    public private(set) var dropped: [Int] = []
}
