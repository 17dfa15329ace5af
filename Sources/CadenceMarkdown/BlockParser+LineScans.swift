/// Scans that ran to the end of a line still being typed, remembered from one tail read to the
/// next.
///
/// A tail snapshot reads the pending line anew after every chunk when its reading depends on how
/// the line ends (`lineEndSensitive`): a line of spaces so far, a run of `-`, `*` or `_` that is a
/// thematic break so far, a setext underline. The scans that decide these cover the whole line, so
/// a long such line would be scanned whole after every chunk. The bytes already scanned do not
/// change while the line grows, so the next read resumes each scan where the last one stopped.
/// Only snapshots of the same pending line share them (`TailCache.lineScans`).
struct LineScans {
    /// Spaces and tabs from `start` (at `column`) up to `end` (at `endColumn`), the end of the line then.
    var blank: (start: Int, column: Int, end: Int, endColumn: Int)?
    /// From `start`, `count` thematic break markers `marker`, and spaces, up to `end`.
    var rule: (start: Int, marker: UInt8, end: Int, count: Int)?
    /// From `start`, setext markers `marker` up to `markersEnd`, then spaces up to `end`.
    var underline: (start: Int, marker: UInt8, markersEnd: Int, end: Int)?
}
