import Foundation

/// What the whole machine did meanwhile: the benchmark shares two cores with whatever else runs
/// (a compiler, another benchmark), so every result says how busy the machine was.
package enum MachineLoad {
    /// The 1-minute load average, as `uptime` shows it.
    package static func loadAverage() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return .nan }
        return Double(text.split(separator: " ").first ?? "") ?? .nan
    }

    /// CPU seconds spent by all processes so far (busy time of every core, from `/proc/stat`).
    package static func busyCPUSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return .nan }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 7 else { return .nan }
        // user nice system idle iowait irq softirq …: busy is user, nice, system, irq and softirq.
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU seconds every other process spent since `machineBefore` (``busyCPUSeconds()`` then),
    /// given the `measured` seconds of the processes the benchmark times itself. `/proc/stat` counts
    /// whole ticks (1/100 s) sampled on each core, the processes' own times are exact, so the
    /// difference is good to a few ticks per core and second: a machine with nothing else running
    /// can make it slightly negative, which is reported as 0.
    package static func otherCPUSeconds(since machineBefore: Double, measured: Double) -> Double {
        max(0, busyCPUSeconds() - machineBefore - measured)
    }
}
