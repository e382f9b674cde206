import FeedsiteParse
import Foundation

/// How a build's diagnostics and summary are worded for a terminal, for GitHub Actions and for
/// its step summary. Pure text; the command line does the printing.
package enum ReportFormatter {
    /// A diagnostic line, with `warning`/`error` in colour when `color` is on (a terminal without
    /// `NO_COLOR`).
    package static func line(_ diagnostic: Diagnostic, color: Bool) -> String {
        guard color else { return printable(diagnostic.description) }
        let code = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;35m"
        return
            "\(printable(diagnostic.location))\(code)\(diagnostic.severity.rawValue):\u{1B}[0m \(printable(diagnostic.message))"
    }

    /// `text` with every control character but tab and line feed written out (`\u{1B}`): messages
    /// quote feeds, servers and saved state, whose escape sequences would otherwise drive the
    /// terminal or the CI log (clear it, retitle it, hide a line).
    package static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A GitHub Actions workflow command, so the warning is shown on the run and on `feeds.yml`:
    /// `::warning file=feeds.yml,line=12::feed 'Name' (…): HTTP 404 Not Found`.
    package static func annotation(_ diagnostic: Diagnostic) -> String {
        var properties: [String] = []
        if let file = diagnostic.file { properties.append("file=\(escapeProperty(file))") }
        if let line = diagnostic.line { properties.append("line=\(line)") }
        if let column = diagnostic.column { properties.append("col=\(column)") }
        let head = properties.isEmpty ? "" : " " + properties.joined(separator: ",")
        return "::\(diagnostic.severity.rawValue)\(head)::\(escapeData(printable(diagnostic.message)))"
    }

    /// A Markdown table for `$GITHUB_STEP_SUMMARY`: the summary line (or why the site was not
    /// updated) and one row per feed, named by its title once known.
    package static func stepSummary(_ report: BuildReport) -> String {
        var text: String
        if let reason = report.stopReason {
            text = "### feedsite: site not updated\n\n**Error:** \(escapeCell(reason))\n\n"
        } else {
            text = "### feedsite\n\n\(report.summary)\n\n"
        }
        text += "| Feed | Health | HTTP | Items | New | Last error |\n|---|---|---|---|---|---|\n"
        let accounts = report.accounts.count == report.records.count ? report.accounts : []
        for (index, record) in report.records.enumerated() {
            var health = record.health
            if !record.isFetched { health += " (not fetched in this build)" }
            let status = record.httpStatus.map(String.init) ?? "—"
            let items = accounts.isEmpty ? "\(record.itemCount)" : accounts[index].summary
            let error = escapeCell(
                record.failure?.description ?? (record.isFetched ? "" : record.state.health.lastError ?? ""))
            let name = escapeCell(record.displayName)
            text +=
                "| [\(name)](\(record.feedURL.absoluteString)) | \(health) | \(status) | \(escapeCell(items)) | \(record.newItemCount) | \(error) |\n"
        }
        return text
    }

    /// A `--verbose` line per feed: what this build did with it and what became of its items.
    package static func feedLines(_ report: BuildReport) -> [String] {
        let accounts = report.accounts.count == report.records.count ? report.accounts : []
        return report.records.enumerated().map { index, record in
            let outcome: String
            switch record.run.outcome {
            case .fresh(let read) where record.failure == nil:
                outcome =
                    accounts.isEmpty
                    ? "read \(read.readCount) items (\(BuildReport.newEntries(record.newItemCount)))"
                    : "fetched (\(BuildReport.newEntries(record.newItemCount)))"
            case .fresh: outcome = "failed: \(record.failure?.description ?? "")"
            case .notModified: outcome = "not modified (304)"
            case .failed(let reason): outcome = "failed: \(reason)"
            case .skipped where record.isPending: outcome = "not fetched yet"
            case .skipped: outcome = "not fetched in this build: \(record.itemCount) saved items"
            }
            let account = accounts.isEmpty ? "" : "; " + accounts[index].summary
            // Never an error of the feed: the monogram (or the avatar made before) is shown.
            let avatar = record.run.avatar?.note.map { "; avatar: \($0)" } ?? ""
            return "\(record.label): \(outcome)\(account)\(avatar)"
        }
    }

    private static func escapeCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// `fetching 37/120…`
    package static func progress(done: Int, total: Int) -> String {
        "fetching \(done)/\(total)…"
    }

    // Workflow command escaping, as GitHub's toolkit does it.
    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
