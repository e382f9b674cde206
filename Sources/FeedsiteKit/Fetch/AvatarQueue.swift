/// Which feeds' icons are asked for when: in the order the feeds were read, at most `limit` at
/// once (`--concurrency`), and at most each host's own limit (`per_host`) to one host, so that the
/// icons, asked for while feeds are still being fetched, keep the bound the feeds keep. A value
/// type run by `AvatarFetcher`, tested without a network.
struct AvatarQueue: Sendable {
    let limit: Int
    private var waiting: [(index: Int, host: String?, hostLimit: Int)] = []
    private var running = 0
    private var runningPerHost: [String: Int] = [:]

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Nothing waits and nothing runs.
    var isIdle: Bool { waiting.isEmpty && running == 0 }

    /// Feed `index`'s icon is to be asked for, first from `host` (nil: no request, no limit).
    mutating func add(_ index: Int, host: String?, hostLimit: Int) {
        waiting.append((index, host?.lowercased(), max(1, hostLimit)))
    }

    /// The next feed whose icon may be asked for now, counted as running; nil: none may start.
    mutating func next() -> Int? {
        guard running < limit,
            let position = waiting.firstIndex(where: { job in
                job.host.map { runningPerHost[$0, default: 0] < job.hostLimit } ?? true
            })
        else { return nil }
        let job = waiting.remove(at: position)
        running += 1
        if let host = job.host { runningPerHost[host, default: 0] += 1 }
        return job.index
    }

    /// The icon of a feed that `next()` started, first asked for from `host`, is done.
    mutating func finished(host: String?) {
        running -= 1
        guard let host = host?.lowercased() else { return }
        runningPerHost[host, default: 1] -= 1
        if runningPerHost[host] == 0 { runningPerHost[host] = nil }
    }
}
