import Testing

@testable import FeedsiteKit

/// The order and the limits in which feeds' icons are asked for, without a network.
@Suite("Avatar queue")
struct AvatarQueueTests {
    static func host(_ name: String, limit: Int) -> HostSlots.Host { HostSlots.Host(name: name, limit: limit) }

    @Test("icons start in the order their feeds were read, at most `limit` at once")
    func orderAndLimit() {
        var queue = AvatarQueue(limit: 2)
        for index in [4, 0, 7] { queue.add(index, host: Self.host("h\(index).example", limit: 2)) }
        #expect(queue.next() == 4)
        #expect(queue.next() == 0)
        #expect(queue.next() == nil)
        queue.finished(host: Self.host("h0.example", limit: 2))
        #expect(queue.next() == 7)
        #expect(queue.next() == nil)
        #expect(!queue.isIdle)
        queue.finished(host: Self.host("h4.example", limit: 2))
        queue.finished(host: Self.host("h7.example", limit: 2))
        #expect(queue.isIdle)
    }

    @Test("a host at its limit is passed over for the next feed; a feed without a request has no host limit")
    func perHost() {
        var queue = AvatarQueue(limit: 10)
        let cdn = Self.host("cdn.example", limit: 1)
        queue.add(0, host: cdn)
        queue.add(1, host: cdn)
        queue.add(2, host: Self.host("other.example", limit: 1))
        queue.add(3, host: nil)
        queue.add(4, host: nil)
        #expect(queue.next() == 0)
        // 1 is on the same host: 2, 3 and 4 go first.
        #expect(queue.next() == 2)
        #expect(queue.next() == 3)
        #expect(queue.next() == 4)
        #expect(queue.next() == nil)
        queue.finished(host: cdn)
        #expect(queue.next() == 1)
        for host in [cdn, Self.host("other.example", limit: 1), nil, nil] { queue.finished(host: host) }
        #expect(queue.isIdle)
    }

    @Test("random runs never exceed either limit and start every feed once")
    func randomRuns() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let limit = Int.random(in: 1...5, using: &random)
            let hostLimit = Int.random(in: 1...3, using: &random)
            var queue = AvatarQueue(limit: limit)
            let hosts = (0..<30).map { _ in ["a", "b", "c", nil].randomElement(using: &random)! }
            for (index, host) in hosts.enumerated() {
                queue.add(index, host: host.map { Self.host($0, limit: hostLimit) })
            }
            var running: [Int] = []
            var started: [Int] = []
            while !queue.isIdle {
                while let index = queue.next() {
                    running.append(index)
                    started.append(index)
                }
                #expect(running.count <= limit)
                for host in Set(hosts.compactMap { $0 }) {
                    #expect(running.filter { hosts[$0] == host }.count <= hostLimit)
                }
                let done = running.remove(at: Int.random(in: 0..<running.count, using: &random))
                queue.finished(host: hosts[done].map { Self.host($0, limit: hostLimit) })
            }
            #expect(started.sorted() == Array(0..<30))
        }
    }
}
