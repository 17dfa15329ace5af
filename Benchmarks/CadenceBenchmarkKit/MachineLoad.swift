import Foundation

/// What the whole machine did meanwhile: the benchmark shares two cores with whatever else runs
/// (a compiler, another benchmark), so every result says how busy the machine was.
package enum MachineLoad {
    /// The 1-minute load average, as `uptime` shows it.
    package static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return .nan }
        return Double(text.split(separator: " ").first ?? "") ?? .nan
    }

    /// CPU seconds spent by all processes so far: the time every online core has been up, less the
    /// time it was idle or waiting for I/O.
    ///
    /// Not `/proc/stat`'s user and system columns: they are sampled, a tick (1/100 s) at a time,
    /// and work that comes in bursts shorter than a tick (a server waking for every event) is
    /// mostly missed between ticks, while a process's own times (`getrusage`, `/proc/<pid>/stat`)
    /// are exact. The idle columns are measured exactly (the kernel stops the tick on an idle core
    /// and counts the time it slept), so uptime less idle is comparable with the processes' times.
    package static func busyCPUSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu "),
            let uptimeText = try? String(contentsOfFile: "/proc/uptime", encoding: .utf8),
            let uptime = Double(uptimeText.split(separator: " ").first ?? "")
        else { return .nan }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 5 else { return .nan }
        // user nice system idle iowait …
        let idle = (ticks[3] + ticks[4]) / Double(sysconf(Int32(_SC_CLK_TCK)))
        return uptime * Double(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - idle
    }

    /// The CPU seconds every other process spent since `machineBefore` (``busyCPUSeconds()`` then),
    /// given the `measured` seconds of the processes the benchmark times itself. The two clocks
    /// agree to a few hundredths of a second per core; a difference below 0 is reported as 0.
    package static func otherCPUSeconds(since machineBefore: Double, measured: Double) -> Double {
        max(0, busyCPUSeconds() - machineBefore - measured)
    }
}
