import FeedsiteShared
import Foundation

extension FeedParser {
    /// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
    ///
    /// Read through `JSONSerialization` rather than `Codable` because real JSON feeds vary the
    /// types of fields (`id` as a number, `size_in_bytes` as a string) and one odd field must not
    /// lose the whole feed. 1.0's `author` and 1.1's `authors` are both accepted.
    ///
    /// `lineOffset` is the number of lines removed before `data` (leading blank lines), so the lines
    /// in diagnostics are the document's own.
    func parseJSONFeed(_ data: Data, url: URL?, lineOffset: Int) throws(FeedParseError) -> Feed {
        var data = data
        var repairs: [String] = []
        if let (repaired, count, line) = Self.replacingLoneSurrogates(in: data) {
            data = repaired
            repairs.append(
                "line \(line + lineOffset): \(count == 1 ? "a \\u escape" : "\(count) \\u escapes") of half a character"
                    + " (a UTF-16 surrogate without its pair: text cut in the middle of an emoji) read as U+FFFD")
        }
        // `\u0001` and the like: no HTML or XML text may hold them, so they are removed, as the
        // XML reader removes `&#1;`. The text is scanned again only when the document has one.
        let controlEscapes = Self.controlEscapes(in: data)
        if let (count, line) = controlEscapes {
            let what = count == 1 ? "an escaped control character" : "\(count) escaped control characters"
            repairs.append("line \(line + lineOffset): removed \(what) (such as \\u0001), which no web page can hold")
        }
        var leftOutItems: Set<Int> = []
        if let budget = try JSONFeedBudget(data, lineOffset: lineOffset) {
            data = budget.data
            repairs += budget.warnings
            leftOutItems = budget.leftOutItems
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            // Only a document JSONSerialization refuses pays for this scan.
            let repair = JSONTextRepair(data)
            let repairedData = Data(repair.bytes)
            if repair.isRepaired, let repaired = try? JSONSerialization.jsonObject(with: repairedData) {
                object = repaired
                data = repairedData
                repairs += repair.warnings(lineOffset: lineOffset)
            } else if let cut = repair.cutOff, let closed = try? JSONSerialization.jsonObject(with: Data(cut.bytes)) {
                // A download cut off in the middle: the complete items before the cut are read, as
                // in an XML feed; the item cut in half is not (its text is incomplete).
                object = closed
                data = Data(cut.bytes)
                repairs += repair.warnings(lineOffset: lineOffset) + [cut.warning(lineOffset: lineOffset)]
            } else {
                throw Self.jsonError(error, data: data, lineOffset: lineOffset, isCutOff: !repair.isComplete)
            }
        }
        guard var root = object as? [String: Any] else {
            throw FeedParseError(message: "the JSON document is not a JSON Feed: its top level is not an object")
        }
        guard root["version"] is String || root["items"] is [Any] else {
            throw FeedParseError(
                message: "the JSON document is not a JSON Feed: it has neither \"version\" nor \"items\"")
        }

        // A value of the wrong type is left out (one odd field never loses the item), and counted
        // by key for one warning each: `"content_html": true` is no content, `"url": 1.2` no link.
        var mistyped: [String: Int] = [:]
        /// A string or a number's text, without control characters when the document escapes some.
        func text(_ value: Any) -> String? {
            guard let text = Self.jsonText(value) else { return nil }
            return controlEscapes == nil ? text : text.removingControlCharacters
        }
        /// Text: a string, or a number written for one (`"id": 123`); not a boolean, list or object.
        func string(_ object: [String: Any], _ key: String) -> String? {
            guard let value = object[key], !(value is NSNull) else { return nil }
            if let text = text(value) { return text.trimmingWhitespace.nilIfEmpty }
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
        /// The objects of a list, the others left out (`[7, {"url": "…"}]` is the one attachment).
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
        /// `tags`: the strings of a list (a number is its text: `2026`); anything else is left out.
        func tags(_ object: [String: Any]) -> [String] {
            guard let value = object["tags"], !(value is NSNull) else { return [] }
            guard let list = value as? [Any] else {
                mistyped["tags", default: 0] += 1
                return []
            }
            var tags: [String] = []
            var isMistyped = false
            for entry in list {
                if let text = text(entry) {
                    if let tag = FeedText.collapseWhitespace(text).nilIfEmpty { tags.append(tag) }
                } else if !(entry is NSNull) {
                    isMistyped = true
                }
            }
            if isMistyped { mistyped["tags", default: 0] += 1 }
            return tags
        }
        /// `size_in_bytes`: a whole number of bytes, from 0 up, or its digits as a string.
        func size(_ attachment: [String: Any]) -> Int? {
            guard let value = attachment["size_in_bytes"], !(value is NSNull) else { return nil }
            if let number = value as? NSNumber, !Self.isBoolean(number) {
                let double = number.doubleValue
                // Below 2^63, where a Double converts to an Int exactly; whole numbers only.
                if double >= 0, double < 0x1p63, double.rounded(.towardZero) == double { return Int(double) }
            } else if let text = value as? String, let bytes = Int(text.trimmingWhitespace), bytes >= 0 {
                return bytes
            }
            mistyped["size_in_bytes", default: 0] += 1
            return nil
        }

        var warnings = repairs
        func date(_ object: [String: Any], _ key: String, context: String) -> Date? {
            guard let text = string(object, key) else { return nil }
            if let date = FeedDate.parse(text) { return date }
            warnings.append("\(context): unparseable date '\(text.prefix(80))'")
            return nil
        }

        var feed = Feed(format: .json, version: Self.jsonFeedVersion(root["version"]))
        feed.title = string(root, "title").map(FeedText.collapseWhitespace) ?? ""
        feed.description = string(root, "description")
        feed.link = link(root, "home_page_url")
        feed.feedLink = link(root, "feed_url")
        feed.language = string(root, "language")
        feed.authors = authors(root)
        if let icon = link(root, "icon") ?? link(root, "favicon") { feed.image = FeedImage(url: icon) }

        if let lists = Self.repeatedItemLists(in: data, lineOffset: lineOffset) {
            root["items"] = lists.items
            warnings.append(lists.warning)
        }
        let rawItems: [Any]
        switch root["items"] {
        case let list as [Any]:
            rawItems = list
        case let object as [String: Any]:
            let read = Self.itemsOutsideAList(object)
            rawItems = read.items
            warnings.append(read.warning)
        case nil, is NSNull:
            rawItems = []
            warnings.append("the feed has no \"items\" list (JSON Feed requires one); no item was read")
        case let other?:
            rawItems = []
            warnings.append("\"items\" is \(Self.jsonKind(other)), not a list of items; no item was read")
        }
        if rawItems.count > FeedParser.maxItems {
            warnings.append(FeedParser.tooManyItemsWarning(total: rawItems.count))
        }
        // Only an item that is an object can repeat a key, and only in a list `items` (or the
        // lists of a repeated `items`): `itemsOutsideAList` reads no keys twice.
        let repeatedKeys = Dictionary(grouping: Self.repeatedItemKeys(in: data), by: \.item)
        var withoutID = 0
        for (offset, raw) in rawItems.prefix(FeedParser.maxItems).enumerated() {
            guard let object = raw as? [String: Any] else {
                if !leftOutItems.contains(offset) { warnings.append("item \(offset + 1): not a JSON object; skipped") }
                continue
            }
            let context = "item \(offset + 1)"
            for (_, key) in repeatedKeys[offset] ?? [] {
                warnings.append("\(context): \"\(key.prefix(80))\" is given more than once; JSON keeps the last value")
            }
            var item = FeedItem()
            item.id = string(object, "id") ?? ""
            if item.id.isEmpty { withoutID += 1 }
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
            item.categories = tags(object)
            if let image = link(object, "image") ?? link(object, "banner_image") { item.image = FeedImage(url: image) }
            item.enclosures = objects(object, "attachments").compactMap { attachment in
                guard let url = link(attachment, "url") else { return nil }
                return Enclosure(url: url, length: size(attachment), type: string(attachment, "mime_type"))
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
        if withoutID > 0 {
            // JSON Feed tells readers to discard such items; feedsite keeps them, as it keeps RSS
            // items without a guid (`ItemIdentity`), and says so.
            let (items, have, them) = withoutID == 1 ? ("1 item", "has", "it") : ("\(withoutID) items", "have", "them")
            warnings.append(
                "\(items) \(have) no \"id\", which JSON Feed requires (other readers may skip \(them));"
                    + " kept, told apart by link, title and date")
        }
        for (key, count) in mistyped.sorted(by: { $0.key < $1.key }) {
            let expected =
                switch key {
                case "attachments", "authors": "a list of objects"
                case "author": "an object"
                case "tags": "a list of strings"
                case "size_in_bytes": "a whole number of bytes"
                default: "a string"
                }
            warnings.append(
                "\"\(key)\" is not \(expected) (\(count) time\(count == 1 ? "" : "s")); "
                    + (count == 1 ? "that value is" : "those values are") + " left out")
        }
        feed.warnings = warnings
        return feed
    }

    /// Every `items` value of a document that gives the key more than once, read in order as one
    /// list (a list's elements, an object's as `itemsOutsideAList` reads them), and the warning
    /// that says so; nil when the key is given once or never.
    private static func repeatedItemLists(in data: Data, lineOffset: Int) -> (items: [Any], warning: String)? {
        guard let ranges = repeatedTopLevelValues(of: "items", in: data) else { return nil }
        var items: [Any] = []
        for range in ranges {
            switch try? JSONSerialization.jsonObject(with: data[range], options: .fragmentsAllowed) {
            case let list as [Any]: items += list
            case let object as [String: Any]: items += itemsOutsideAList(object).items
            default: break
            }
        }
        var lines: [Int] = []
        var line = 1
        var counted = data.startIndex
        for range in ranges {
            line += Self.lineBreaks(in: data[counted..<range.lowerBound])
            counted = range.lowerBound
            lines.append(line + lineOffset)
        }
        let places = lines.dropLast().map(String.init).joined(separator: ", ") + " and \(lines[lines.count - 1])"
        return (
            items,
            "\"items\" is given \(ranges.count) times (lines \(places)); JSON keeps only the last, so each was"
                + " read: \(items.count) item\(items.count == 1 ? "" : "s") in all"
        )
    }

    /// How many line feeds `bytes` holds: the lines a diagnostic's place is past.
    static func lineBreaks(in bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    /// The keys that make an object an item, when `items` is one object instead of a list.
    private static let itemKeys = ["id", "url", "title", "content_html", "content_text", "summary"]

    /// The items of an `items` object, and the warning that says how they were read: the object
    /// itself when it is one item, else its values in the order of their keys as numbers
    /// (`{"0": {…}, "2": {…}, "10": {…}}`: PHP's `json_encode` writes a list with a gap in its
    /// numbering, after `array_filter`, as such an object).
    private static func itemsOutsideAList(_ object: [String: Any]) -> (items: [Any], warning: String) {
        if itemKeys.contains(where: { object[$0] != nil }) {
            return ([object], "\"items\" is one item object, not a list of them; read as the feed's only item")
        }
        let values = object.sorted { first, second in
            switch (Int(first.key), Int(second.key)) {
            case (let a?, let b?): a < b
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): first.key < second.key
            }
        }.map(\.value)
        return (
            values,
            "\"items\" is an object, not a list (PHP's json_encode writes a list with gaps in its numbering so);"
                + " its \(values.count) value\(values.count == 1 ? " is" : "s are") read as the items, in the order of"
                + " their keys"
        )
    }

    /// A string, or a number's text (`123`, `1.5`); nil for anything else.
    private static func jsonText(_ value: Any) -> String? {
        if let text = value as? String { return text }
        if let number = value as? NSNumber, !isBoolean(number) { return number.stringValue }
        return nil
    }

    /// JSON's `true` and `false` also arrive as `NSNumber`, told apart by their type code.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// What a JSON value is, for a diagnostic: "a string", "a number", "true", "an object"…
    private static func jsonKind(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case let number as NSNumber: isBoolean(number) ? (number.boolValue ? "true" : "false") : "a number"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        default: "null"
        }
    }

    /// The version a `version` value names: `https://jsonfeed.org/version/1` (any scheme, case or
    /// trailing slash) → "1.0", `…/1.1` → "1.1"; a bare `1.1` too. Anything else, or none: "1.0",
    /// the version whose fields every later one still reads.
    static func jsonFeedVersion(_ value: Any?) -> String {
        guard let value, let text = jsonText(value) else { return "1.0" }
        var version = Substring(text.trimmingWhitespace.lowercased())
        if let range = version.range(of: "jsonfeed.org/version/") { version = version[range.upperBound...] }
        while version.hasSuffix("/") { version = version.dropLast() }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return "1.0" }
        return parts.count == 1 ? "\(version).0" : String(version)
    }

    /// How many `\\u0000`–`\\u001F` escapes other than tab, line feed and carriage return `data`
    /// holds, and the line of the first; nil when none.
    static func controlEscapes(in data: Data) -> (count: Int, line: Int)? {
        var count = 0
        var first = 0
        var index = data.startIndex
        while index < data.endIndex, let backslash = data[index...].firstIndex(of: UInt8(ascii: "\\")) {
            // The escaped character, a backslash included, never starts another escape.
            index = backslash + 2
            guard backslash + 6 <= data.endIndex, data[backslash + 1] == UInt8(ascii: "u"),
                data[backslash + 2] == UInt8(ascii: "0"), data[backslash + 3] == UInt8(ascii: "0"),
                let value = UInt8(String(decoding: data[backslash + 4..<backslash + 6], as: UTF8.self), radix: 16),
                value < 0x20, value != 0x09, value != 0x0A, value != 0x0D
            else { continue }
            if count == 0 { first = backslash }
            count += 1
        }
        guard count > 0 else { return nil }
        return (count, Self.lineBreaks(in: data[..<first]) + 1)
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
        return (Data(bytes), count, Self.lineBreaks(in: bytes[..<first]) + 1)
    }

    /// A `JSONSerialization` failure as a diagnostic, located when Foundation's text names the
    /// offset ("around character 243", a byte offset into `data`). Its own text is cut at 200
    /// characters (it may quote the document: a 200,000-digit number).
    private static func jsonError(_ error: any Error, data: Data, lineOffset: Int, isCutOff: Bool) -> FeedParseError {
        let nsError = error as NSError
        var detail =
            (nsError.userInfo[NSDebugDescriptionErrorKey] as? String)
            ?? (nsError.userInfo["NSDebugDescription"] as? String) ?? nsError.localizedDescription
        // Foundation's sentences end with a full stop; the diagnostic goes on after them.
        while detail.last == "." { detail.removeLast() }
        var line: Int?
        var column: Int?
        for phrase in [" around character ", " starting from character "] {
            guard let range = detail.range(of: phrase), let offset = Int(detail[range.upperBound...]),
                offset <= data.count
            else { continue }
            let before = data.prefix(offset)
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
            line = Self.lineBreaks(in: before) + 1 + lineOffset
            // Characters, not bytes: UTF-8 continuation bytes do not count.
            column = before[lineStart...].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
            detail.removeSubrange(range.lowerBound...)
            break
        }
        if detail.count > 200 { detail = detail.prefix(199) + "…" }
        if let first = detail.first, detail.dropFirst().first?.isLowercase == true {
            detail = first.lowercased() + detail.dropFirst()
        }
        let hint = isCutOff ? "; the document ends before its last '}' (cut off?)" : ""
        return FeedParseError(line: line, column: column, message: "malformed JSON Feed: \(detail)\(hint)")
    }

    /// What is commonly wrong with JSON a feed generator wrote by hand, put right: line breaks and
    /// tabs written raw inside strings (a template that pastes text in without escaping it), text
    /// after the top-level value (a caching plugin's `<!-- generated in 0.2 seconds -->`), and
    /// numbers beyond a Double (`1e400`), which `JSONSerialization` refuses wherever they are: they
    /// become strings, so an `id` keeps its digits and an extension nobody reads costs nothing; and a
    /// value nested more than `maxDepth` deep (`JSONSerialization` refuses a document nested more than
    /// 512 deep, so one item's extension would lose every post), which becomes `null`: no field of a
    /// JSON Feed is deeper than 4. One byte scan, run only on a document `JSONSerialization` refused.
    struct JSONTextRepair {
        static let maxDepth = 100
        /// The top-level value, repaired, and nothing after it.
        private(set) var bytes: [UInt8] = []
        /// Control characters (U+0000–U+001F) found raw inside strings, and the line of the first.
        private(set) var controlCount = 0
        private(set) var firstControlLine = 0
        /// Numbers made strings, the line and the start of the first.
        private(set) var hugeNumberCount = 0
        private(set) var firstHugeNumber = (line: 0, text: "")
        /// The line and the start of the text after the top-level value, when there is some.
        private(set) var trailing: (line: Int, text: String)?
        /// The top-level value ends (its last bracket is there): the document was not cut off inside it.
        private(set) var isComplete = false

        /// Values nested more than `maxDepth` deep, made `null`, and the line where the first began.
        private(set) var deepValueCount = 0
        private(set) var firstDeepValueLine = 0

        var isRepaired: Bool {
            isComplete && (controlCount > 0 || hugeNumberCount > 0 || deepValueCount > 0 || trailing != nil)
        }

        /// A document cut off after its `"items"` list began (a download that stopped): the part
        /// before the cut, up to the last complete item (or the end of the list), closed.
        struct CutOff {
            var bytes: [UInt8]
            /// The complete items kept.
            var items: Int
            /// The document ends inside an item (it is dropped), not after the list.
            var isInsideItem: Bool
            /// The document's last line.
            var line: Int

            func warning(lineOffset: Int) -> String {
                let kept =
                    switch items {
                    case 0: "no item before it is whole"
                    case 1: "the item before it is read"
                    default: "the \(items) items before it are read"
                    }
                return "line \(line + lineOffset): "
                    + (isInsideItem
                        ? "the document ends in the middle of item \(items + 1) (cut off): \(kept); the one cut in half is dropped"
                        : "the document ends after its items (cut off): all \(items) are read")
            }
        }
        private(set) var cutOff: CutOff?

        init(_ data: Data) {
            let input = [UInt8](data)
            bytes.reserveCapacity(input.count + 64)
            var depth = 0
            var isInString = false
            var isEscaped = false
            var line = 1
            var end = input.count
            /// Where the number being read starts, in `input` and in `bytes`.
            var number: (start: Int, output: Int)?
            /// The top-level object's last string (a key, when `[` follows it), and the `"items"`
            /// list: where its last complete item ends in `bytes`, how many, and where it closed.
            var stringStart = 0
            var lastTopLevelString: Range<Int> = 0..<0
            var isInItems = false
            var itemsEnd: Int?
            var itemCount = 0
            var itemsClosedAt: Int?
            /// The depth outside the value too deep being skipped (written as `null`), while skipping.
            var skippingAbove: Int?
            scan: for (index, byte) in input.enumerated() {
                let isSkipping = skippingAbove != nil
                if isInString {
                    if isEscaped {
                        isEscaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        isEscaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        isInString = false
                        if depth == 1 { lastTopLevelString = stringStart..<(index + 1) }
                    } else if byte < 0x20, !isSkipping {
                        if controlCount == 0 { firstControlLine = line }
                        controlCount += 1
                        if byte == 0x0A { line += 1 }
                        bytes += Self.escape(byte)
                        continue
                    }
                } else if let outside = skippingAbove {
                    switch byte {
                    case UInt8(ascii: "\""): isInString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == outside { skippingAbove = nil }
                    default: break
                    }
                } else {
                    let isNumberByte = Self.isNumberByte(byte)
                    if let start = number, !isNumberByte {
                        quoteIfHuge(input[start.start..<index], from: start.output, line: line)
                        number = nil
                    } else if number == nil, byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) {
                        number = (index, bytes.count)
                    }
                    switch byte {
                    case UInt8(ascii: "\""):
                        isInString = true
                        stringStart = index
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        if depth >= Self.maxDepth {
                            if deepValueCount == 0 { firstDeepValueLine = line }
                            deepValueCount += 1
                            skippingAbove = depth
                            depth += 1
                            bytes += Array("null".utf8)
                            continue
                        }
                        // Each `"items"` list (a document may repeat the key; every list is read).
                        if byte == UInt8(ascii: "["), depth == 1,
                            input[lastTopLevelString].elementsEqual(#""items""#.utf8)
                        {
                            isInItems = true
                            itemsEnd = bytes.count + 1
                            itemsClosedAt = nil
                        }
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if isInItems, depth == 2 {
                            itemCount += 1
                            itemsEnd = bytes.count + 1
                        } else if isInItems, depth == 1 {
                            isInItems = false
                            itemsClosedAt = bytes.count + 1
                        }
                        if depth == 0 {
                            bytes.append(byte)
                            end = index + 1
                            isComplete = true
                            break scan
                        }
                    default: break
                    }
                }
                if byte == 0x0A { line += 1 }
                if !isSkipping { bytes.append(byte) }
            }
            if !isComplete, let itemsEnd {
                let closed =
                    itemsClosedAt.map { bytes[..<$0] + Array("}".utf8) } ?? bytes[..<itemsEnd] + Array("]}".utf8)
                cutOff = CutOff(bytes: Array(closed), items: itemCount, isInsideItem: itemsClosedAt == nil, line: line)
            }
            let rest = input[end...]
            guard let first = rest.firstIndex(where: { !FeedParser.isXMLSpace($0) }) else { return }
            line += FeedParser.lineBreaks(in: rest[..<first])
            trailing = (line, Self.quote(input[first..<min(first + 120, input.count)]))
        }

        /// Makes the number `token`, written to `bytes` from `output`, a string when it is beyond a
        /// Double (one that is no number at all stays, for `JSONSerialization` to refuse).
        private mutating func quoteIfHuge(_ token: ArraySlice<UInt8>, from output: Int, line: Int) {
            guard let value = Double(String(decoding: token, as: UTF8.self)), value.isInfinite else { return }
            if hugeNumberCount == 0 {
                firstHugeNumber = (line, Self.quote(token) + (token.count > 60 ? " (\(token.count) digits)" : ""))
            }
            hugeNumberCount += 1
            bytes.replaceSubrange(output..., with: [UInt8(ascii: "\"")] + token + [UInt8(ascii: "\"")])
        }

        /// A byte of a JSON number after its first (a digit or `-`): a digit, sign, point or exponent.
        private static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                true
            default: false
            }
        }

        /// Up to 60 characters of `text`, white space collapsed, for a warning.
        private static func quote(_ text: ArraySlice<UInt8>) -> String {
            let quoted = FeedText.collapseWhitespace(String(decoding: text.prefix(120), as: UTF8.self))
            return quoted.count > 60 ? quoted.prefix(59) + "…" : quoted
        }

        /// One located warning for each kind of repair, lines counted from `lineOffset`.
        func warnings(lineOffset: Int) -> [String] {
            var warnings: [String] = []
            if controlCount > 0 {
                warnings.append(
                    "line \(firstControlLine + lineOffset): repaired a line break, tab or other control character"
                        + " written unescaped inside a string" + (controlCount == 1 ? "" : " (\(controlCount) times)"))
            }
            if hugeNumberCount > 0 {
                warnings.append(
                    "line \(firstHugeNumber.line + lineOffset): read a number beyond a 64-bit float"
                        + " (\(firstHugeNumber.text)) as text"
                        + (hugeNumberCount == 1 ? "" : " (\(hugeNumberCount) times)"))
            }
            if deepValueCount > 0 {
                warnings.append(
                    "line \(firstDeepValueLine + lineOffset): ignored a value nested more than \(Self.maxDepth) deep"
                        + (deepValueCount == 1 ? "" : " (\(deepValueCount) times)"))
            }
            if let trailing {
                warnings.append(
                    "line \(trailing.line + lineOffset): ignored text after the end of the JSON Feed (\"\(trailing.text)\")"
                )
            }
            return warnings
        }

        /// The JSON escape for a control character: `\n`, `\r`, `\t`; nothing for the others, which
        /// no web page can hold (as for their `\\u0001` escapes).
        private static func escape(_ byte: UInt8) -> [UInt8] {
            switch byte {
            case 0x0A: Array(#"\n"#.utf8)
            case 0x0D: Array(#"\r"#.utf8)
            case 0x09: Array(#"\t"#.utf8)
            default: []
            }
        }
    }
}

extension String {
    /// The text without C0 control characters other than tab, line feed and carriage return.
    fileprivate var removingControlCharacters: String {
        var scalars = String.UnicodeScalarView()
        scalars.append(
            contentsOf: unicodeScalars.lazy.filter { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        return String(scalars)
    }
}
