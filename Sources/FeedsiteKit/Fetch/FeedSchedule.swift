/// The order in which a build fetches and reads its feeds, as a value-type state machine: no
/// tasks and no I/O, so it is tested without a network (`FeedScheduleTests`); `FeedReader` runs
/// its actions in one task group.
///
/// Each feed is fetched (network: at most `fetchLimit` at a time overall, and at most its host's
/// limit per host), then, once its body is in, read: parsed and sanitised (CPU: at most
/// `readLimit` at a time, one per core). A fetch's slot is freed as soon as its body has arrived,
/// so slow servers keep `fetchLimit` requests in flight while the cores work through what came
/// back, instead of each slot waiting for its feed's CPU work as well. Bodies waiting for a core
/// count against a second bound (`fetchLimit` again), so memory stays bounded when the network
/// outpaces the CPU. Fetches start in `feeds.yml` order, reads in the order bodies arrived.
struct FeedSchedule: Sendable, Equatable {
    /// What to do next.
    enum Action: Sendable, Hashable {
        /// Start fetching feed `index`.
        case fetch(Int)
        /// Start reading feed `index`'s fetched body.
        case read(Int)
        /// Nothing can start now: wait for a fetch or a read to finish, and say so.
        case wait
        /// Every feed is finished, or the schedule was cancelled and nothing is in flight.
        case done
    }

    /// Where a feed is fetched from, for the per-host limit.
    typealias Host = HostSlots.Host

    /// Per feed, its host; nil for a local file, which no per-host limit applies to.
    private let hosts: [Host?]
    private let fetchLimit: Int
    private let readLimit: Int
    /// Feeds not fetched yet, in `feeds.yml` order.
    private var pending: [Int]
    /// Fetched bodies waiting for a core, in arrival order.
    private var waiting: [Int] = []
    private var fetching = 0
    private var reading = 0
    private var slots = HostSlots()
    private var isCancelled = false
    /// Feeds fetched and read, or whose fetch was their outcome (a 304, a failure).
    private(set) var finishedCount = 0

    /// - Parameters:
    ///   - hosts: one per feed, nil for a local file.
    ///   - skipped: feeds not to fetch at all (they are neither started nor counted as finished).
    ///   - fetchLimit: requests in flight at once (`--concurrency`), at least 1.
    ///   - readLimit: bodies read at once (the cores), at least 1.
    init(hosts: [Host?], skipping skipped: Set<Int> = [], fetchLimit: Int, readLimit: Int) {
        self.hosts = hosts
        self.fetchLimit = max(1, fetchLimit)
        self.readLimit = max(1, readLimit)
        self.pending = hosts.indices.filter { !skipped.contains($0) }
    }

    /// The next thing to start, if any: a read when a body waits and a core is free, else the first
    /// pending fetch whose host has a free slot, while fewer than `fetchLimit` are in flight and
    /// fewer than `fetchLimit` bodies wait. Call it until it answers `.wait` or `.done`.
    mutating func next() -> Action {
        if !isCancelled {
            if reading < readLimit, !waiting.isEmpty {
                reading += 1
                return .read(waiting.removeFirst())
            }
            if fetching < fetchLimit, fetching + waiting.count < 2 * fetchLimit,
                let position = pending.firstIndex(where: { slots.hasRoom(for: hosts[$0]) })
            {
                let index = pending.remove(at: position)
                fetching += 1
                slots.take(hosts[index])
                return .fetch(index)
            }
        }
        return fetching + reading > 0 ? .wait : .done
    }

    /// Feed `index`'s fetch finished: with a body to read, or with its outcome (a 304, a failure).
    mutating func fetchFinished(_ index: Int, hasBody: Bool) {
        fetching -= 1
        slots.free(hosts[index])
        if hasBody {
            waiting.append(index)
        } else {
            finishedCount += 1
        }
    }

    /// Feed `index` was read.
    mutating func readFinished(_ index: Int) {
        reading -= 1
        finishedCount += 1
    }

    /// Starts nothing more: what is in flight finishes, what waits is never started.
    mutating func cancel() {
        isCancelled = true
    }
}
