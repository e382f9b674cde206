import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// `FeedSchedule` without a network: which fetch or read starts when, under the overall, per-host,
/// per-core and waiting-body bounds, and how it ends.
@Suite("Feed schedule")
struct FeedScheduleTests {
    static func hosts(_ names: [String?], limit: Int = 100) -> [FeedSchedule.Host?] {
        names.map { $0.map { FeedSchedule.Host(name: $0, limit: limit) } }
    }

    /// Calls `next()` until it answers `.wait` or `.done`; returns every answer.
    static func drain(_ schedule: inout FeedSchedule) -> [FeedSchedule.Action] {
        var actions: [FeedSchedule.Action] = []
        while true {
            let action = schedule.next()
            actions.append(action)
            if action == .wait || action == .done { return actions }
        }
    }

    @Test("fetches start in feeds.yml order up to the limit; a body goes to a free core, which frees a fetch slot")
    func order() {
        var schedule = FeedSchedule(
            hosts: Self.hosts(["a", "b", "c", "d", "e"]), fetchLimit: 2, readLimit: 1)
        #expect(Self.drain(&schedule) == [.fetch(0), .fetch(1), .wait])
        schedule.fetchFinished(1, hasBody: true)
        #expect(Self.drain(&schedule) == [.read(1), .fetch(2), .wait])
        schedule.fetchFinished(0, hasBody: false)  // a 304 or a failure: finished without a read
        #expect(schedule.finishedCount == 1)
        #expect(Self.drain(&schedule) == [.fetch(3), .wait])
        schedule.fetchFinished(2, hasBody: true)
        schedule.fetchFinished(3, hasBody: true)
        // One core, busy with feed 1: the bodies of 2 and 3 wait, in arrival order.
        #expect(Self.drain(&schedule) == [.fetch(4), .wait])
        schedule.readFinished(1)
        #expect(Self.drain(&schedule) == [.read(2), .wait])
        schedule.readFinished(2)
        schedule.fetchFinished(4, hasBody: false)
        #expect(Self.drain(&schedule) == [.read(3), .wait])
        schedule.readFinished(3)
        #expect(schedule.next() == .done)
        #expect(schedule.finishedCount == 5)
    }

    @Test("a host at its per_host limit is passed over for the next feed; local files have no host limit")
    func perHost() {
        var schedule = FeedSchedule(
            hosts: Self.hosts(["a", "a", "a", "b"], limit: 2) + [nil, nil, nil], fetchLimit: 10, readLimit: 4)
        #expect(Self.drain(&schedule) == [.fetch(0), .fetch(1), .fetch(3), .fetch(4), .fetch(5), .fetch(6), .wait])
        schedule.fetchFinished(3, hasBody: false)
        #expect(Self.drain(&schedule) == [.wait])  // b finishing frees no slot for a
        schedule.fetchFinished(0, hasBody: false)
        #expect(Self.drain(&schedule) == [.fetch(2), .wait])
    }

    @Test("bodies waiting for a core count against the fetch limit a second time")
    func waitingBodies() {
        var schedule = FeedSchedule(hosts: Self.hosts(["a", "b", "c", "d", "e"]), fetchLimit: 1, readLimit: 1)
        #expect(Self.drain(&schedule) == [.fetch(0), .wait])
        schedule.fetchFinished(0, hasBody: true)
        #expect(Self.drain(&schedule) == [.read(0), .fetch(1), .wait])
        schedule.fetchFinished(1, hasBody: true)
        #expect(Self.drain(&schedule) == [.fetch(2), .wait])  // 1 body waits: 0 + 1 < 2
        schedule.fetchFinished(2, hasBody: true)
        #expect(Self.drain(&schedule) == [.wait])  // 2 bodies wait: no fetch until a core takes one
        schedule.readFinished(0)
        #expect(Self.drain(&schedule) == [.read(1), .fetch(3), .wait])
    }

    @Test("skipped feeds are never started; a schedule with nothing to do is done at once")
    func skipped() {
        var schedule = FeedSchedule(
            hosts: Self.hosts(["a", "b", "c"]), skipping: [0, 2], fetchLimit: 4, readLimit: 2)
        #expect(Self.drain(&schedule) == [.fetch(1), .wait])
        schedule.fetchFinished(1, hasBody: true)
        #expect(Self.drain(&schedule) == [.read(1), .wait])
        schedule.readFinished(1)
        #expect(schedule.next() == .done)
        #expect(schedule.finishedCount == 1)

        var empty = FeedSchedule(hosts: [], fetchLimit: 4, readLimit: 2)
        #expect(empty.next() == .done)
        var allSkipped = FeedSchedule(hosts: Self.hosts(["a"]), skipping: [0], fetchLimit: 4, readLimit: 2)
        #expect(allSkipped.next() == .done)
    }

    @Test("after cancel nothing starts: what is in flight finishes, then done; waiting bodies are never read")
    func cancel() {
        var schedule = FeedSchedule(hosts: Self.hosts(["a", "b", "c", "d"]), fetchLimit: 2, readLimit: 1)
        #expect(Self.drain(&schedule) == [.fetch(0), .fetch(1), .wait])
        schedule.fetchFinished(0, hasBody: true)
        #expect(Self.drain(&schedule) == [.read(0), .fetch(2), .wait])
        schedule.fetchFinished(1, hasBody: true)  // waits: the core is busy
        schedule.cancel()
        #expect(schedule.next() == .wait)  // feed 0 is read, feed 2 fetched
        schedule.readFinished(0)
        #expect(schedule.next() == .wait)
        schedule.fetchFinished(2, hasBody: false)
        #expect(schedule.next() == .done)
        #expect(schedule.finishedCount == 2)  // 0 read, 2 failed; 1 never read, 3 never fetched
    }

    @Test("in any completion order every feed is fetched once and read once, within every bound")
    func randomCompletions() {
        var random = SplitMix64(seed: 0x5C4E)
        for round in 0..<300 {
            let count = Int.random(in: 0...40, using: &random)
            let hostNames = ["a", "b", "c", nil]
            let names = (0..<count).map { _ in hostNames.randomElement(using: &random) ?? nil }
            let perHost = Int.random(in: 1...4, using: &random)
            let fetchLimit = Int.random(in: 1...8, using: &random)
            let readLimit = Int.random(in: 1...3, using: &random)
            let skipped = Set((0..<count).filter { _ in Int.random(in: 0..<5, using: &random) == 0 })
            var schedule = FeedSchedule(
                hosts: Self.hosts(names, limit: perHost), skipping: skipped, fetchLimit: fetchLimit,
                readLimit: readLimit)
            var fetching: [Int] = []
            var waiting: [Int] = []
            var reading: [Int] = []
            var fetched = Set<Int>()
            var read = Set<Int>()
            var finished = Set<Int>()
            var steps = 0
            loop: while steps < 10_000 {
                steps += 1
                switch schedule.next() {
                case .fetch(let index):
                    #expect(fetched.insert(index).inserted && !skipped.contains(index), "round \(round)")
                    fetching.append(index)
                    #expect(fetching.count <= fetchLimit && fetching.count + waiting.count <= 2 * fetchLimit)
                    if let host = names[index] {
                        #expect(fetching.filter { names[$0] == host }.count <= perHost, "round \(round)")
                    }
                case .read(let index):
                    #expect(waiting.first == index, "round \(round): reads in arrival order")
                    waiting.removeFirst()
                    #expect(read.insert(index).inserted)
                    reading.append(index)
                    #expect(reading.count <= readLimit)
                case .wait:
                    // Finish something in flight, chosen at random.
                    let inFlight = fetching.count + reading.count
                    guard inFlight > 0 else {
                        Issue.record("round \(round): wait with nothing in flight")
                        break loop
                    }
                    let pick = Int.random(in: 0..<inFlight, using: &random)
                    if pick < fetching.count {
                        let index = fetching.remove(at: pick)
                        let hasBody = Bool.random(using: &random)
                        schedule.fetchFinished(index, hasBody: hasBody)
                        if hasBody { waiting.append(index) } else { finished.insert(index) }
                    } else {
                        let index = reading.remove(at: pick - fetching.count)
                        schedule.readFinished(index)
                        finished.insert(index)
                    }
                case .done:
                    break loop
                }
            }
            #expect(fetched == Set(0..<count).subtracting(skipped), "round \(round)")
            #expect(finished == fetched, "round \(round)")
            #expect(schedule.finishedCount == finished.count)
            #expect(fetching.isEmpty && waiting.isEmpty && reading.isEmpty)
        }
    }
}
