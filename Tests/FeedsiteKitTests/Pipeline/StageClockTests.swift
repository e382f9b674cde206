import Testing

@testable import FeedsiteKit

/// `StageClock` times each stage in order and names the stage in an error no stage type covers.
@Suite("Stage clock")
struct StageClockTests {
    struct Unexpected: Error, CustomStringConvertible {
        var description: String { "the disk said no" }
    }

    @Test("each stage is timed once, in order, also when it throws")
    func laps() async {
        var clock = StageClock()
        let value = await clock.time(.load) { 3 }
        #expect(value == 3)
        _ = try? await clock.time(.fetch) { () async throws -> Int in throw Unexpected() }
        await clock.time(.render) {}
        #expect(clock.laps.map(\.stage) == ["load", "fetch+parse+sanitise", "render"])
    }

    @Test("an error no stage type covers names its stage; a stage's own errors and cancellation pass through")
    func errors() async {
        var clock = StageClock()
        let wrapped = await #expect(throws: BuildError.self) {
            try await clock.time(.write) { throw Unexpected() }
        }
        #expect(wrapped?.description == "error: write+swap: the disk said no")
        #expect(wrapped?.exitStatus == .ioError)
        let own = await #expect(throws: StateError.self) {
            try await clock.time(.saveState) { throw StateError(.io, path: "state.json", "full") }
        }
        #expect(own?.diagnostics.map(\.description) == ["error: state.json: full"])
        await #expect(throws: CancellationError.self) {
            try await clock.time(.fetch) { throw CancellationError() }
        }
    }
}
