import Testing

@testable import FeedsiteKit

/// The order and the limits in which feeds' icons are asked for, without a network.
@Suite("Avatar queue")
struct AvatarQueueTests {
    @Test("icons start in the order their feeds were read, at most `limit` at once")
    func orderAndLimit() {
        var queue = AvatarQueue(limit: 2)
        for index in [4, 0, 7] { queue.add(index, host: "h\(index).example", hostLimit: 2) }
        #expect(queue.next() == 4)
        #expect(queue.next() == 0)
        #expect(queue.next() == nil)
        queue.finished(host: "h0.example")
        #expect(queue.next() == 7)
        #expect(queue.next() == nil)
        #expect(!queue.isIdle)
        queue.finished(host: "h4.example")
        queue.finished(host: "h7.example")
        #expect(queue.isIdle)
    }

    @Test("a host at its limit is passed over for the next feed; a feed without a request has no host limit")
    func perHost() {
        var queue = AvatarQueue(limit: 10)
        queue.add(0, host: "cdn.example", hostLimit: 1)
        queue.add(1, host: "CDN.example", hostLimit: 1)
        queue.add(2, host: "other.example", hostLimit: 1)
        queue.add(3, host: nil, hostLimit: 1)
        queue.add(4, host: nil, hostLimit: 1)
        #expect(queue.next() == 0)
        // 1 is on the same host (names are compared without case): 2, 3 and 4 go first.
        #expect(queue.next() == 2)
        #expect(queue.next() == 3)
        #expect(queue.next() == 4)
        #expect(queue.next() == nil)
        queue.finished(host: "cdn.example")
        #expect(queue.next() == 1)
        for host in ["CDN.example", "other.example", nil, nil] { queue.finished(host: host) }
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
            for (index, host) in hosts.enumerated() { queue.add(index, host: host, hostLimit: hostLimit) }
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
                queue.finished(host: hosts[done])
            }
            #expect(started.sorted() == Array(0..<30))
        }
    }
}
