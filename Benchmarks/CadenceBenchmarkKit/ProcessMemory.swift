import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process's resident memory, read from `/proc/PID/status` (Linux): `VmRSS` now and `VmHWM`, its
/// highest so far. Kernel socket buffers are not in either.
package struct ProcessMemory: Sendable, Equatable {
    /// `VmRSS`, in bytes.
    package var resident: Int
    /// `VmHWM`, in bytes.
    package var peak: Int

    /// The memory of process `pid`, or of this process when `pid` is nil; zeros where `/proc` cannot
    /// be read.
    package static func read(pid: Int32? = nil) -> ProcessMemory {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else {
            return ProcessMemory(resident: 0, peak: 0)
        }
        func kilobytes(_ field: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return ProcessMemory(resident: kilobytes("VmRSS") * 1024, peak: kilobytes("VmHWM") * 1024)
    }

    /// Asks the allocator to hand its free pages back to the system (glibc's `malloc_trim(0)`, looked
    /// up at run time: the Glibc module does not import `malloc.h`), so that `VmRSS` shows what is
    /// live rather than what the allocator keeps for later. Returns false where there is no such call.
    @discardableResult
    package static func releaseFreeHeapPages() -> Bool {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        return true
        #else
        return false
        #endif
    }
}
