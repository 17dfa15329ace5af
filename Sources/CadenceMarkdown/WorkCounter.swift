/// Steps of parsing work, for tests that check the parser stays linear on hostile input (10⁵ nested
/// quotes, brackets or list markers) by counting instead of timing.
///
/// The block and inline parsers count the iterations of their loops that could revisit the same
/// bytes (containers matched per line, delimiter and bracket walks, scans for a closing run) and
/// the bytes they scan; a document sums them in ``MarkdownDocument/work``. Counting is an `Int`
/// addition per step: nothing measurable.
final class WorkCounter: @unchecked Sendable {
    @exclusivity(unchecked) var steps = 0
}
