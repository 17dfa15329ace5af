import Foundation
import GRDBSQLite

/// Counts the bytes SQLite writes to the files under one folder: the database, its `-wal` and its
/// journal, the way they reach the disk.
///
/// While ``count(under:during:)`` runs, a VFS that wraps the default one is the default: every file
/// SQLite opens is the real file, opened by the real VFS, and every call on it is forwarded; writes
/// to files under the folder are added up on the way. The `-shm` index is shared memory, mapped
/// rather than written, so it is not counted. Connections opened during the count keep the counting
/// VFS after it, which then only forwards.
enum DiskWrites {
    /// Bytes written under `folder` by SQLite connections opened while `body` runs.
    static func count(under folder: String, during body: () async throws -> Void) async throws -> Int {
        let vfs = CountingVFS.shared
        tally.start(folder: folder)
        sqlite3_vfs_register(vfs.counting, 1)
        defer { sqlite3_vfs_register(vfs.real, 1) }
        try await body()
        return tally.total
    }
}

/// What the counting VFS has seen: the folder it counts under, and the bytes written there.
private final class WriteTally: @unchecked Sendable {
    private let lock = NSLock()
    private var folder: String?
    private var bytes = 0

    func start(folder: String) {
        lock.withLock { (self.folder, bytes) = (folder, 0) }
    }

    func counts(_ path: String) -> Bool {
        lock.withLock { folder.map { path.hasPrefix($0) } ?? false }
    }

    func add(_ count: Int) {
        lock.withLock { bytes += count }
    }

    var total: Int { lock.withLock { bytes } }
}

private let tally = WriteTally()

/// An open file of the counting VFS: SQLite's file header, then the real file it forwards to, which
/// lives in the same allocation right after this struct.
private struct CountingFile {
    var base: sqlite3_file
    var real: UnsafeMutablePointer<sqlite3_file>?
    var isCounted: Bool
}

/// The two VFS objects: SQLite's default and the counting one around it. Both live as long as the
/// process, as registered VFSes must.
private struct CountingVFS: @unchecked Sendable {
    let real: UnsafeMutablePointer<sqlite3_vfs>
    let counting: UnsafeMutablePointer<sqlite3_vfs>

    static let shared = CountingVFS()

    private init() {
        guard sqlite3_initialize() == SQLITE_OK, let real = sqlite3_vfs_find(nil) else {
            fatalError("SQLite has no default VFS")
        }
        self.real = real
        counting = .allocate(capacity: 1)
        counting.initialize(to: real.pointee)
        counting.pointee.zName = UnsafePointer(strdup("cadence-counting"))
        counting.pointee.pNext = nil
        counting.pointee.szOsFile = Int32(MemoryLayout<CountingFile>.stride) + real.pointee.szOsFile
        // The real VFS's own methods read their `pAppData` only in `xOpen`, which gets the real VFS.
        counting.pointee.pAppData = UnsafeMutableRawPointer(real)
        counting.pointee.xOpen = { vfs, name, file, flags, outFlags in
            guard let file, let real = vfs?.pointee.pAppData?.assumingMemoryBound(to: sqlite3_vfs.self) else {
                return SQLITE_ERROR
            }
            let inner = UnsafeMutableRawPointer(file).advanced(by: MemoryLayout<CountingFile>.stride)
                .assumingMemoryBound(to: sqlite3_file.self)
            inner.pointee.pMethods = nil
            let status = real.pointee.xOpen(real, name, inner, flags, outFlags)
            let counted = name.map { tally.counts(String(cString: $0)) } ?? false
            file.withMemoryRebound(to: CountingFile.self, capacity: 1) { wrapper in
                wrapper.pointee.real = inner
                wrapper.pointee.isCounted = counted
                wrapper.pointee.base.pMethods = inner.pointee.pMethods == nil ? nil : UnsafePointer(forwardingMethods)
            }
            return status
        }
    }
}

/// The real file behind a counting one, and its methods.
private func unwrap(_ file: UnsafeMutablePointer<sqlite3_file>?) -> (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) {
    let real = file!.withMemoryRebound(to: CountingFile.self, capacity: 1) { $0.pointee.real! }
    return (real, real.pointee.pMethods.pointee)
}

private func isCounted(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Bool {
    file!.withMemoryRebound(to: CountingFile.self, capacity: 1) { $0.pointee.isCounted }
}

/// Methods that forward each call to the real file; `xWrite` adds to the tally first.
nonisolated(unsafe) private let forwardingMethods: UnsafeMutablePointer<sqlite3_io_methods> = {
    var methods = sqlite3_io_methods()
    methods.iVersion = 3
    methods.xClose = { file in let (real, m) = unwrap(file); return m.xClose(real) }
    methods.xRead = { file, buffer, amount, offset in let (real, m) = unwrap(file); return m.xRead(real, buffer, amount, offset) }
    methods.xWrite = { file, buffer, amount, offset in
        if isCounted(file) { tally.add(Int(amount)) }
        let (real, m) = unwrap(file)
        return m.xWrite(real, buffer, amount, offset)
    }
    methods.xTruncate = { file, size in let (real, m) = unwrap(file); return m.xTruncate(real, size) }
    methods.xSync = { file, flags in let (real, m) = unwrap(file); return m.xSync(real, flags) }
    methods.xFileSize = { file, size in let (real, m) = unwrap(file); return m.xFileSize(real, size) }
    methods.xLock = { file, lock in let (real, m) = unwrap(file); return m.xLock(real, lock) }
    methods.xUnlock = { file, lock in let (real, m) = unwrap(file); return m.xUnlock(real, lock) }
    methods.xCheckReservedLock = { file, out in let (real, m) = unwrap(file); return m.xCheckReservedLock(real, out) }
    methods.xFileControl = { file, op, argument in let (real, m) = unwrap(file); return m.xFileControl(real, op, argument) }
    methods.xSectorSize = { file in let (real, m) = unwrap(file); return m.xSectorSize(real) }
    methods.xDeviceCharacteristics = { file in let (real, m) = unwrap(file); return m.xDeviceCharacteristics(real) }
    methods.xShmMap = { file, page, size, extend, out in let (real, m) = unwrap(file); return m.xShmMap(real, page, size, extend, out) }
    methods.xShmLock = { file, offset, count, flags in let (real, m) = unwrap(file); return m.xShmLock(real, offset, count, flags) }
    methods.xShmBarrier = { file in let (real, m) = unwrap(file); m.xShmBarrier(real) }
    methods.xShmUnmap = { file, delete in let (real, m) = unwrap(file); return m.xShmUnmap(real, delete) }
    methods.xFetch = { file, offset, amount, out in let (real, m) = unwrap(file); return m.xFetch(real, offset, amount, out) }
    methods.xUnfetch = { file, offset, page in let (real, m) = unwrap(file); return m.xUnfetch(real, offset, page) }
    let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    pointer.initialize(to: methods)
    return pointer
}()
