import Foundation

extension PageRenderer {
    /// Renders every page of `site` into `staging`, streamed: the shared pages (index, archive,
    /// status, the planet's feeds) in a few jobs, then one job per feed, as many at a time as
    /// there are cores, each writing its own pages into the staging folder and handing back what
    /// it wrote, so the whole site is never held in memory at once.
    ///
    /// - Returns: the number of HTML pages.
    func render(_ site: Site, records: [FeedRecord], into staging: inout SiteWriter.Staging) async throws -> Int {
        enum Job {
            case shared(SharedJob)
            case feed(SiteFeed)
        }
        // One context for every job: it indexes every feed.
        let context = context(for: site)
        let jobs = sharedJobs(context).map(Job.shared) + site.feeds.map(Job.feed)
        let limit = max(2, ProcessInfo.processInfo.activeProcessorCount)
        let area = staging.area
        var pages = 0
        try await withThrowingTaskGroup(of: (pages: Int, batch: SiteWriter.Staging.Area.Batch).self) { group in
            var next = 0
            func addTask() {
                let job = jobs[next]
                next += 1
                group.addTask {
                    switch job {
                    case .shared(let shared):
                        let files = try render(shared, in: context, records: records)
                        return (files.keys.filter { $0.hasSuffix(".html") }.count, try await area.write(files))
                    case .feed(let feed):
                        var pages = 0
                        var batch = SiteWriter.Staging.Area.Batch(paths: [], changedFiles: 0)
                        try await renderFeed(feed, in: context) { files in
                            pages += files.keys.filter { $0.hasSuffix(".html") }.count
                            let written = try await area.write(files)
                            batch.paths += written.paths
                            batch.changedFiles += written.changedFiles
                        }
                        return (pages, batch)
                    }
                }
            }
            while next < min(limit, jobs.count) { addTask() }
            for try await (jobPages, batch) in group {
                pages += jobPages
                try staging.record(batch)
                if next < jobs.count { addTask() }
            }
        }
        return pages
    }
}
