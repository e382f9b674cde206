import Foundation

/// Plain text (Atom `type="text"`, JSON Feed `content_text`) as content: shown as written. A blank
/// line starts a paragraph, a line break stays one, and a typed http(s) URL is a link; nothing else
/// is read into it (`*`, `_`, `[1]: …`, `1986.`, `---` and `<b>` are the characters they are).
/// Built straight into the closed world's tree, so no markup parser sees the text at all.
enum PlainTextContent {
    static func blocks(from text: String, baseURL: URL?) -> [ContentBlock] {
        var blocks: [ContentBlock] = []
        var lines: [Substring] = []
        func endParagraph() {
            guard !lines.isEmpty else { return }
            var inlines: [ContentInline] = []
            for (index, line) in lines.enumerated() {
                if index > 0 { inlines.append(.lineBreak) }
                inlines += Self.inlines(of: line, baseURL: baseURL)
            }
            blocks.append(.paragraph(inlines))
            lines.removeAll()
        }
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        for line in normalised.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                endParagraph()
            } else {
                lines.append(Substring(trimmed))
            }
        }
        endParagraph()
        return blocks
    }

    /// A line's text, with each typed http(s) URL a link to itself (the URL policy decides, as for
    /// any link; a URL it refuses stays text).
    static func inlines(of line: Substring, baseURL: URL?) -> [ContentInline] {
        var inlines: [ContentInline] = []
        var rest = line[...]
        while let start = urlStart(in: rest) {
            var end = rest[start...].firstIndex { $0.isWhitespace || "<>\"".contains($0) } ?? rest.endIndex
            // Punctuation after a URL ends the sentence, not the URL; a `)` only closes one it opened.
            var unclosed = rest[start..<end].reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) }
            while end > start {
                let last = rest[rest.index(before: end)]
                if last == ")", unclosed < 0 {
                    unclosed += 1
                } else if !".,;:!?'’\"".contains(last) {
                    break
                }
                end = rest.index(before: end)
            }
            let typed = String(rest[start..<end])
            if !typed.hasSuffix("://"), let destination = URLPolicy.resolve(typed, against: baseURL, for: .link) {
                if start > rest.startIndex { inlines.append(.text(String(rest[..<start]))) }
                inlines.append(.link(destination: destination, title: "", [.text(typed)]))
            } else {
                inlines.append(.text(String(rest[..<end])))
            }
            rest = rest[end...]
        }
        if !rest.isEmpty { inlines.append(.text(String(rest))) }
        return inlines
    }

    /// Where the next `http://` or `https://` (any case) starts in `text`, at the start of a word.
    private static func urlStart(in text: Substring) -> Substring.Index? {
        var search = text.startIndex
        while let colon = text[search...].range(of: "://") {
            var start = colon.lowerBound
            while start > text.startIndex, text[text.index(before: start)].isLetter {
                start = text.index(before: start)
            }
            let scheme = text[start..<colon.lowerBound].lowercased()
            if scheme == "http" || scheme == "https" { return start }
            search = colon.upperBound
        }
        return nil
    }
}
