#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CLOCK_MONOTONIC` in nanoseconds. On Linux it is one clock for the whole machine, so a time read
/// in the server process and one read in the reader process can be subtracted.
package func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// CPU time the calling thread has used, in nanoseconds: what a piece of work cost, whatever else
/// the machine ran meanwhile (on shared cores, wall time also counts the time spent waiting for one).
package func threadCPUNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Raises this process's soft limit on open files to its hard limit (10,000 readers need 10,000
/// sockets) and returns the limit now in force.
@discardableResult
package func raiseOpenFileLimit() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return -1 }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(resource, &limit)
    _ = getrlimit(resource, &limit)
    return Int(limit.rlim_cur)
}

/// How many times this process's threads have stopped running so far: blocked to wait
/// (voluntary) or preempted. Each wait a thread is woken from counts once.
package func processContextSwitches() -> Int {
    let usage = processUsage()
    return usage.ru_nvcsw + usage.ru_nivcsw
}

/// The CPU time (user + system) this process has used so far, in seconds.
package func processCPUSeconds() -> Double {
    let usage = processUsage()
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// This process's resource usage so far, all its threads together.
private func processUsage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}
