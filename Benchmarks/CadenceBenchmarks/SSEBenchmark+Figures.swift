import CadenceBenchmarkKit

extension SSEBenchmark {
    /// Adds a case's figures to the `--json` object: `PREFIX_mib_s`, `PREFIX_m_events_s` and
    /// `PREFIX_lf_scan_mib_s`.
    static func report(_ figures: Figures) {
        let prefix = figurePrefixes[figures.name] ?? String(figures.name.map { $0 == "-" ? "_" : $0 })
        ReportedFigures.shared.add("\(prefix)_mib_s", figures.mebibytesPerSecond, decimals: 1)
        ReportedFigures.shared.add("\(prefix)_m_events_s", figures.millionEventsPerSecond, decimals: 3)
        ReportedFigures.shared.add("\(prefix)_lf_scan_mib_s", figures.lineFeedScanMebibytesPerSecond, decimals: 1)
    }

    /// The figure names of the cases whose name does not give them. Issue 16's names: `token_…` is
    /// the token events on the fast path (`feed(_:into:)` into a reused `SSEBatch`, each event's data
    /// borrowed), `large_accented_…` the 64 KB accented events, each a `String` validated in bulk.
    static let figurePrefixes = [
        "tokens-borrowed": "token", "tokens": "token_strings", "tokens-arrays": "token_arrays",
        "large-prose": "large_accented", "large-prose-borrowed": "large_accented_borrowed",
    ]
}
