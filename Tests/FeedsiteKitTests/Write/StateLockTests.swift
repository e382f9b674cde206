import Foundation
import Synchronization
import Testing

@testable import FeedsiteKit

/// Two builds on one state folder used to run side by side: both read the same state, and the
/// one that saved last dropped what the other had learnt (validators, health, first-seen items).
@Suite("State lock")
struct StateLockTests {
    @Test("a second build waits for the first, says so once, and runs when the first lets go")
    func secondBuildWaits() async throws {
        let build = try TestBuild()
        defer { build.remove() }
        let server = try await FixtureServer(routes: ["/feed": .feed(StateSamples.rss(items: 3))])
        let store = StateStore(directory: build.work.appendingPathComponent("state"))
        var first: FileLock? = try await StateLock.acquire(for: store) { _ in Issue.record("no one holds it yet") }
        #expect(first != nil)
        let notices = Mutex<[String]>([])
        let done = Mutex(false)
        let second = Task {
            defer { done.withLock { $0 = true } }
            return try await build.run(server: server, feeds: [("/feed", "Feed")]) { text in
                notices.withLock { $0.append(text) }
            }
        }
        // The second build gets past its configuration and waits at the lock (however long a busy
        // machine takes to get there: no deadline; had it not waited, it finishes and fails below).
        while notices.withLock({ $0.isEmpty }), !done.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .seconds(0.5))
        #expect(!done.withLock { $0 })
        #expect(server.requests.isEmpty)
        #expect(
            notices.withLock { $0 }
                == [
                    "another feedsite build is using the state folder \(store.directory.path); waiting for it to finish"
                ])
        first = nil
        let report = try await second.value
        #expect(report.itemCount == 3)
        #expect(server.requests.count == 1)
        #expect(notices.withLock { $0.count } == 1)
        try await server.shutdown()
    }

    @Test("a build stopped while it waits ends with the wait, taking nothing")
    func cancelledWait() async throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        let held = try await StateLock.acquire(for: store) { _ in }
        let waiter = Task { try await StateLock.acquire(for: store) { _ in } }
        try await Task.sleep(for: .seconds(0.3))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiter.value }
        withExtendedLifetime(held) {}
    }
}
