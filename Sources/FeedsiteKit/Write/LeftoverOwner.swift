import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whose a leftover named after a process id is (`.Site.new-<pid>`, `.state.json.new-<pid>`): a
/// build's own folders and files carry its pid, and only a dead build's are cleaned up.
enum LeftoverOwner {
    /// Whether process `pid` may still be the build that last changed `path`: it is running, and
    /// (where `/proc` tells) it started no later than that change. A pid that outlived its build
    /// and was given to a later process (pids repeat, in containers especially) does not keep
    /// the leftover, possibly a whole site, forever.
    static func mayBeRunning(_ pid: pid_t, owning path: String) -> Bool {
        guard pid > 0 else { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let started = startTime(of: pid), let changed = modificationTime(of: path) else { return true }
        // `btime` is whole seconds, a process's start is in clock ticks: a margin for both.
        return started <= changed + 2
    }

    /// When `path` (not followed if a link) was last modified, in seconds since 1970.
    static func modificationTime(of path: String) -> Double? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }

    /// When process `pid` started, in seconds since 1970 (from Linux's `/proc`); nil elsewhere.
    static func startTime(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")"),
            let bootTime = bootTime()
        else { return nil }
        // After the name: field 3 (state) onwards; field 22 is the start, in clock ticks since boot.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 19, let ticks = Double(fields[19]), ticksPerSecond > 0 else { return nil }
        return bootTime + ticks / Double(ticksPerSecond)
    }

    /// The system's boot time, in seconds since 1970 (`btime` in `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") })
        else { return nil }
        return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
    }
}
