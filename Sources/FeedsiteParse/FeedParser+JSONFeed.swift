import FeedsiteShared
import Foundation

extension FeedParser {
    /// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
    ///
    /// Read through `JSONSerialization` rather than `Codable` because real JSON feeds vary the
    /// types of fields (`id` as a number, `size_in_bytes` as a string) and one odd field must not
    /// lose the whole feed. 1.0's `author` and 1.1's `authors` are both accepted.
    func parseJSONFeed(_ data: Data, url: URL?) throws(FeedParseError) -> Feed {
        var data = data
        var repairs: [String] = []
        if let (repaired, count, line) = Self.replacingLoneSurrogates(in: data) {
            data = repaired
            repairs.append(
                "line \(line): \(count == 1 ? "a \\u escape" : "\(count) \\u escapes") of half a character (a UTF-16"
                    + " surrogate without its pair: text cut in the middle of an emoji) read as U+FFFD")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw Self.jsonError(error, data: data)
        }
        guard let root = object as? [String: Any] else {
            throw FeedParseError(message: "the JSON document is not a JSON Feed: its top level is not an object")
        }
        let versionURL = root["version"] as? String
        guard versionURL != nil || root["items"] is [Any] else {
            throw FeedParseError(
                message: "the JSON document is not a JSON Feed: it has neither \"version\" nor \"items\"")
        }
        // `https://jsonfeed.org/version/1` → "1.0", `…/1.1` → "1.1".
        var version = versionURL.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "1.0"
        if !version.contains(".") { version += ".0" }

        // A value of the wrong type is left out (one odd field never loses the item), and counted
        // by key for one warning each: `"content_html": true` is no content, `"url": 1.2` no link.
        var mistyped: [String: Int] = [:]
        /// Text: a string, or a number written for one (`"id": 123`); not a boolean, list or object.
        func string(_ object: [String: Any], _ key: String) -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            if let value = value as? String { return value.trimmingWhitespace.nilIfEmpty }
            if let number = value as? NSNumber, String(cString: number.objCType) != "c" { return number.stringValue }
            mistyped[key, default: 0] += 1
            return nil
        }
        /// A URL: only a string.
        func link(_ object: [String: Any], _ key: String) -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            guard let text = value as? String else {
                mistyped[key, default: 0] += 1
                return nil
            }
            return text.trimmingWhitespace.nilIfEmpty.flatMap { FeedText.resolve($0, against: url) }
        }
        /// The objects of a list, the others left out (`["not an author", {"name": "Jane"}]` is Jane).
        func objects(_ object: [String: Any], _ key: String) -> [[String: Any]] {
            guard let value = object[key], !(value is NSNull) else { return [] }
            guard let list = value as? [Any] else {
                mistyped[key, default: 0] += 1
                return []
            }
            let objects = list.compactMap { $0 as? [String: Any] }
            if objects.count < list.count { mistyped[key, default: 0] += 1 }
            return objects
        }
        func authors(_ object: [String: Any]) -> [Person] {
            var list = objects(object, "authors")
            if object["authors"] == nil, let author = object["author"], !(author is NSNull) {
                if let author = author as? [String: Any] {
                    list = [author]
                } else {
                    mistyped["author", default: 0] += 1
                }
            }
            return list.compactMap { author in
                let person = Person(
                    name: string(author, "name").map(FeedText.collapseWhitespace), uri: link(author, "url"))
                return person.name == nil && person.uri == nil ? nil : person
            }
        }

        var warnings = repairs
        func date(_ object: [String: Any], _ key: String, context: String) -> Date? {
            guard let text = string(object, key) else { return nil }
            if let date = FeedDate.parse(text) { return date }
            warnings.append("\(context): unparseable date '\(text.prefix(80))'")
            return nil
        }

        var feed = Feed(format: .json, version: version)
        feed.title = string(root, "title").map(FeedText.collapseWhitespace) ?? ""
        feed.description = string(root, "description")
        feed.link = link(root, "home_page_url")
        feed.feedLink = link(root, "feed_url")
        feed.language = string(root, "language")
        feed.authors = authors(root)
        if let icon = link(root, "icon") ?? link(root, "favicon") { feed.image = FeedImage(url: icon) }

        let rawItems = root["items"] as? [Any] ?? []
        if rawItems.count > FeedParser.maxItems {
            warnings.append(FeedParser.tooManyItemsWarning(total: rawItems.count))
        }
        for (offset, raw) in rawItems.prefix(FeedParser.maxItems).enumerated() {
            guard let object = raw as? [String: Any] else {
                warnings.append("item \(offset + 1): not a JSON object; skipped")
                continue
            }
            let context = "item \(offset + 1)"
            var item = FeedItem()
            item.id = string(object, "id") ?? ""
            item.link = link(object, "url") ?? link(object, "external_url")
            if let html = string(object, "content_html") {
                (item.content, item.contentKind) = (html, .html)
            } else if let text = string(object, "content_text") {
                (item.content, item.contentKind) = (text, .text)
            }
            if let summary = string(object, "summary") {
                (item.description, item.descriptionKind) = (summary, .text)
            }
            item.published = date(object, "date_published", context: context)
            item.updated = date(object, "date_modified", context: context)
            if item.published == nil { item.published = item.updated }
            item.authors = authors(object)
            if item.authors.isEmpty { item.authors = feed.authors }
            item.categories = (object["tags"] as? [Any] ?? []).compactMap {
                ($0 as? String).map(FeedText.collapseWhitespace)?.nilIfEmpty
            }
            if let image = link(object, "image") ?? link(object, "banner_image") { item.image = FeedImage(url: image) }
            item.enclosures = objects(object, "attachments").compactMap { attachment in
                guard let url = link(attachment, "url") else { return nil }
                let size =
                    (attachment["size_in_bytes"] as? NSNumber)?.intValue
                    ?? string(attachment, "size_in_bytes").flatMap { Int($0) }
                return Enclosure(url: url, length: size, type: string(attachment, "mime_type"))
            }
            if let title = string(object, "title") {
                item.title = FeedParser.StateMachine.plainTitle(title, isHTML: false) ?? ""
            }
            if item.title.isEmpty, let source = item.content ?? item.description {
                let kind = item.content != nil ? item.contentKind : item.descriptionKind
                item.title = FeedText.derivedTitle(fromHTML: kind == .html ? source : FeedText.escapeText(source))
                item.isTitleDerived = !item.title.isEmpty
            }
            feed.items.append(item)
        }
        for (key, count) in mistyped.sorted(by: { $0.key < $1.key }) {
            let expected =
                switch key {
                case "authors", "attachments": "a list of objects"
                case "author": "an object"
                default: "a string"
                }
            warnings.append(
                "\"\(key)\" is not \(expected) (\(count) time\(count == 1 ? "" : "s")); "
                    + (count == 1 ? "that value is" : "those values are") + " left out")
        }
        feed.warnings = warnings
        return feed
    }

    /// `data` with each `\\uD800`–`\\uDFFF` escape that is not half of a pair replaced by `\\uFFFD`
    /// (the same length), how many, and the line of the first; nil when there is none.
    /// `JSONSerialization` rejects the whole document for one, and JavaScript's `JSON.stringify`
    /// writes one for a string cut between the halves of an emoji (a summary cut at 200 UTF-16
    /// units): browsers and Python's json read it as U+FFFD.
    static func replacingLoneSurrogates(in data: Data) -> (Data, count: Int, line: Int)? {
        var bytes = [UInt8](data)
        var count = 0
        var first: Int?
        func surrogate(at index: Int) -> UInt16? {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                let value = UInt16(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16),
                (0xD800...0xDFFF).contains(value)
            else { return nil }
            return value
        }
        var index = 0
        while let backslash = bytes[index...].firstIndex(of: UInt8(ascii: "\\")) {
            guard let value = surrogate(at: backslash) else {
                index = backslash + 2  // any other escape, `\\\\` included
                if index >= bytes.count { break }
                continue
            }
            if value < 0xDC00, let low = surrogate(at: backslash + 6), low >= 0xDC00 {
                index = backslash + 12  // a pair
            } else {
                bytes.replaceSubrange(backslash + 2..<backslash + 6, with: Array("FFFD".utf8))
                count += 1
                if first == nil { first = backslash }
                index = backslash + 6
            }
            if index >= bytes.count { break }
        }
        guard let first else { return nil }
        return (Data(bytes), count, bytes[..<first].lazy.filter { $0 == 0x0A }.count + 1)
    }

    /// A `JSONSerialization` failure as a diagnostic with the line, when Foundation gives an offset.
    /// Its own text is cut at 200 characters (it may quote the document: a 200,000-digit number).
    private static func jsonError(_ error: any Error, data: Data) -> FeedParseError {
        let nsError = error as NSError
        var detail =
            (nsError.userInfo[NSDebugDescriptionErrorKey] as? String)
            ?? (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
        if detail.count > 200 { detail = detail.prefix(199) + "…" }
        // Foundation's sentences end with a full stop; the diagnostic goes on after them.
        while detail.last == "." { detail.removeLast() }
        var line: Int?
        if let index = nsError.userInfo["NSJSONSerializationErrorIndex"] as? Int, index <= data.count {
            line = data.prefix(index).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }
        let truncated = !data.reversed().drop(while: { isXMLSpace($0) }).starts(with: [UInt8(ascii: "}")])
        let hint = truncated ? "; the document ends early (cut off?)" : ""
        return FeedParseError(line: line, message: "malformed JSON Feed: \(detail)\(hint)")
    }
}
