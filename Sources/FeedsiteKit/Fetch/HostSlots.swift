/// Requests in flight per host, held to each host's own limit (`per_host`): the bound
/// `FeedSchedule` keeps for feeds and `AvatarQueue` for their icons. A value type; nil stands for
/// no host (a local file, an icon job that makes no request), which no limit applies to.
struct HostSlots: Sendable, Equatable {
    /// A host and its limit.
    struct Host: Sendable, Hashable {
        var name: String
        /// Requests to this host at once (`per_host`).
        var limit: Int
    }

    private var inFlight: [String: Int] = [:]

    /// Whether one more request may go to `host` now.
    func hasRoom(for host: Host?) -> Bool {
        guard let host else { return true }
        return inFlight[host.name, default: 0] < host.limit
    }

    /// A request to `host` starts.
    mutating func take(_ host: Host?) {
        guard let host else { return }
        inFlight[host.name, default: 0] += 1
    }

    /// A request to `host` that `take` counted has finished.
    mutating func free(_ host: Host?) {
        guard let host else { return }
        inFlight[host.name, default: 1] -= 1
        if inFlight[host.name] == 0 { inFlight[host.name] = nil }
    }
}
