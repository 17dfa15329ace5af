extension SSEBenchmark {
    /// Reports one stream's figures for `--json`, named after its case: `token_mib_s`,
    /// `token_m_events_s` and `token_lf_scan_mib_s` for the token events, `large_accented_…` for the
    /// accented 64 KB events, and likewise for every other case.
    static func report(_ title: String, _ mebibytesPerSecond: Double, eventsPerSecond: Double, lineFeedScan: Double) {
        let name = streams.first { $0.title == title }?.name ?? title
        let prefix = figurePrefixes[name] ?? String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        ReportedFigures.shared.add("\(prefix)_mib_s", mebibytesPerSecond, decimals: 1)
        ReportedFigures.shared.add("\(prefix)_m_events_s", eventsPerSecond / 1e6, decimals: 3)
        ReportedFigures.shared.add("\(prefix)_lf_scan_mib_s", lineFeedScan, decimals: 1)
    }

    /// The figure names of the cases whose name does not give them.
    static let figurePrefixes = ["tokens": "token", "tokens-arrays": "token_arrays", "large-prose": "large_accented"]
}
