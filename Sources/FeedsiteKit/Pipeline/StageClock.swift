/// Runs the stages of a build: times each (for `--verbose` and the benchmark: measure, don't
/// guess) and names the stage in any error that its own error types do not cover.
struct StageClock {
    private(set) var laps: [(stage: String, duration: Duration)] = []

    /// Runs `body` as `stage`. A stage's own errors (`ExitStatusError`s, each naming what failed
    /// and mapped to an exit status) and cancellation pass through as they are; anything else
    /// becomes `BuildError.stageFailed`, which says in which stage it happened.
    mutating func time<Result>(_ stage: BuildStage, _ body: () async throws -> Result) async rethrows -> Result {
        let start = ContinuousClock.now
        defer { laps.append((stage.rawValue, ContinuousClock.now - start)) }
        do {
            return try await body()
        } catch let error as any ExitStatusError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw BuildError.stageFailed(stage, reason: String(describing: error))
        }
    }

}
