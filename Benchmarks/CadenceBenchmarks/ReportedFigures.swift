import CadenceBenchmarkKit
import NIOConcurrencyHelpers

/// The figures the running benchmark reports, which `--json` prints as one object when it ends.
/// A benchmark adds each figure where it computes it, under the name docs/benchmarks.md gives it:
///
/// ```swift
/// ReportedFigures.shared.add("append_ratio", appendOnly.seconds / full.seconds)
/// ```
final class ReportedFigures: Sendable {
    static let shared = ReportedFigures()

    private let figures = NIOLockedValueBox(Figures())

    func add(_ name: String, _ value: Double, decimals: Int = 3) {
        figures.withLockedValue { $0.add(name, value, decimals: decimals) }
    }

    func add(_ name: String, _ value: Int) {
        figures.withLockedValue { $0.add(name, value) }
    }

    func add(_ name: String, _ value: String) {
        figures.withLockedValue { $0.add(name, value) }
    }

    /// Adds every figure of `more`, in order.
    func add(_ more: Figures) {
        figures.withLockedValue { $0.append(contentsOf: more) }
    }

    /// The figures reported since the last call, which starts a new set.
    func take() -> Figures {
        figures.withLockedValue { figures in
            defer { figures = Figures() }
            return figures
        }
    }
}
