import Foundation

/// How a build's diagnostics and summary are worded for a terminal, for GitHub Actions and for
/// its step summary. Pure text; the command line does the printing.
public enum ReportFormatter {
    /// A diagnostic line, with `warning`/`error` in colour when `color` is on (a terminal without
    /// `NO_COLOR`).
    public static func line(_ diagnostic: Diagnostic, color: Bool) -> String {
        guard color else { return diagnostic.description }
        let code = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;35m"
        return "\(diagnostic.location)\(code)\(diagnostic.severity.rawValue):\u{1B}[0m \(diagnostic.message)"
    }

    /// A GitHub Actions workflow command, so the warning is shown on the run and on `feeds.yml`:
    /// `::warning file=feeds.yml,line=12::feed 'Name' (…): HTTP 404 Not Found`.
    public static func annotation(_ diagnostic: Diagnostic) -> String {
        var properties: [String] = []
        if let file = diagnostic.file { properties.append("file=\(escapeProperty(file))") }
        if let line = diagnostic.line { properties.append("line=\(line)") }
        if let column = diagnostic.column { properties.append("col=\(column)") }
        let head = properties.isEmpty ? "" : " " + properties.joined(separator: ",")
        return "::\(diagnostic.severity.rawValue)\(head)::\(escapeData(diagnostic.message))"
    }

    /// A Markdown table for `$GITHUB_STEP_SUMMARY`: the summary line and one row per feed.
    public static func stepSummary(_ report: BuildReport) -> String {
        var text = "### feedsite\n\n\(report.summary)\n\n"
        text += "| Feed | Health | HTTP | Items | New | Last error |\n|---|---|---|---|---|---|\n"
        for record in report.records {
            let health = record.failure == nil ? "ok" : (record.isStale ? "stale" : "failing")
            let status = record.run.status.map(String.init) ?? "—"
            let items = record.itemCount
            let error = (record.failure ?? "").replacingOccurrences(of: "|", with: "\\|")
            let name = record.displayName.replacingOccurrences(of: "|", with: "\\|")
            text +=
                "| [\(name)](\(record.source.url.absoluteString)) | \(health) | \(status) | \(items) | \(record.newItemCount) | \(error) |\n"
        }
        return text
    }

    /// `fetching 37/120…`
    public static func progress(done: Int, total: Int) -> String {
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
