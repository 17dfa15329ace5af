// PLACEHOLDER written by the lead engineer so the package compiles; replaced whole by its owner.
public enum CitationSupport {
    public static let defaultThreshold = 0.5
    public static func score(sentence: String, source: String) -> Double { 0 }
}
