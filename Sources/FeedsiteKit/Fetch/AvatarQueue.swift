/// Which feeds' icons are asked for when: in the order the feeds were read, at most `limit` at
/// once (`--concurrency`), and at most each host's own limit (`per_host`, `HostSlots`) to one
/// host, so that the icons, asked for while feeds are still being fetched, keep the bound the feeds
/// keep. A value type run by `AvatarFetcher`, tested without a network.
struct AvatarQueue: Sendable {
    let limit: Int
    private var waiting: [(index: Int, host: HostSlots.Host?)] = []
    private var running = 0
    private var slots = HostSlots()

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Nothing waits and nothing runs.
    var isIdle: Bool { waiting.isEmpty && running == 0 }

    /// Feed `index`'s icon is to be asked for, first from `host` (nil: no request, no limit).
    mutating func add(_ index: Int, host: HostSlots.Host?) {
        waiting.append((index, host))
    }

    /// The next feed whose icon may be asked for now, counted as running; nil: none may start.
    mutating func next() -> Int? {
        guard running < limit, let position = waiting.firstIndex(where: { slots.hasRoom(for: $0.host) }) else {
            return nil
        }
        let job = waiting.remove(at: position)
        running += 1
        slots.take(job.host)
        return job.index
    }

    /// The icon of a feed that `next()` started, first asked for from `host`, is done.
    mutating func finished(host: HostSlots.Host?) {
        running -= 1
        slots.free(host)
    }
}
