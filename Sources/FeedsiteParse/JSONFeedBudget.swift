import FeedsiteShared
import Foundation

/// A JSON Feed held to a budget of values before `JSONSerialization` builds it.
///
/// `JSONSerialization` makes an object of every value, 60–190 bytes each, before the first one is
/// looked at: a 48 MB feed of `{},` took 3 GB and 36 s, one item with 24 million numbers in an
/// extension 1.5 GB and 22 s. A document of at most `documentValues` values (`JSONShape`: every
/// real feed) is read as it is; a larger one is rewritten first, so that a stranger's oversized
/// item costs only itself:
/// - a value of an item, or of the feed, holding more than `itemValues` values becomes `null`:
///   left out, the item kept;
/// - an item still holding more than `itemValues` values becomes `null`: left out;
/// - the items after the `FeedParser.maxItems`-th, or after the one that brings the document past
///   `documentValues`, are cut (feeds list their newest first).
///
/// Hand-written: no parser of the field reads JSON in bounded memory. One pass over the bytes,
/// strings skipped whole, no recursion; only the outermost four levels are tracked.
package struct JSONFeedBudget {
    /// About 190 MB of `JSONSerialization`'s objects at most; a feed of 10,000 items, the most read
    /// (`FeedParser.maxItems`), holds about 300,000.
    static let documentValues = 1_000_000
    /// A post holds tens of values, a long podcast episode with chapters a few hundred.
    static let itemValues = 10_000

    /// The document to read.
    package private(set) var data: Data
    /// Its values, as `JSONShape` counts them: at most `documentValues`.
    package private(set) var values: Int
    /// What was left out, and where.
    package private(set) var warnings: [String] = []
    /// The items (0-based, in document order) that became `null`: already explained by `warnings`.
    package private(set) var leftOutItems: Set<Int> = []

    /// Nil when `data` is within `documentValues` (one count).
    /// - Parameters: `documentValues`, `itemValues`: lower in tests and fuzzing.
    /// - Throws: when the document is still over budget outside its items (a feed object of a
    ///   million keys, or a top level that is no object).
    package init?(
        _ data: Data, lineOffset: Int, documentValues: Int = Self.documentValues, itemValues: Int = Self.itemValues
    ) throws(FeedParseError) {
        guard JSONShape(data, maxValues: documentValues).values > documentValues else { return nil }
        var scan = Scan(lineOffset: lineOffset, documentValues: documentValues, itemValues: itemValues)
        data.withUnsafeBytes { scan.run($0.bindMemory(to: UInt8.self)) }
        guard scan.values <= documentValues else {
            throw FeedParseError(
                message:
                    "the JSON document holds more than \(documentValues) JSON values outside a JSON Feed's items (a feed of \(FeedParser.maxItems) posts holds about 300000): it was not read; tell the feed's owner"
            )
        }
        var rewritten = Data()
        rewritten.reserveCapacity(data.count)
        var position = data.startIndex
        for (range, text) in scan.replacements {
            rewritten.append(data[position..<(data.startIndex + range.lowerBound)])
            rewritten.append(contentsOf: text.utf8)
            position = data.startIndex + range.upperBound
        }
        rewritten.append(data[position...])
        self.data = rewritten
        values = scan.values
        warnings = scan.warnings
        leftOutItems = scan.leftOutItems
    }

    /// The pass over the bytes: what to replace, and why.
    private struct Scan {
        let lineOffset: Int
        let documentValues: Int
        let itemValues: Int
        /// Values so far, without those replaced or cut (counted as `JSONShape` counts).
        var values = 1
        /// Byte ranges and their replacement text, in document order, none inside another.
        var replacements: [(range: Range<Int>, text: String)] = []
        var warnings: [String] = []
        var leftOutItems: Set<Int> = []

        /// An open array or object among the outermost four levels.
        struct Frame {
            enum Role { case root, items, item, field, inside }
            var role: Role
            var isObject: Bool
            var start: Int
            /// `values` before its `[` or `{` counted its first element.
            var valuesBefore: Int
            /// Inside an object: the next string is a key.
            var expectsKey: Bool
            /// Inside an object: the last key.
            var key: [UInt8] = []
        }
        var frames: [Frame] = []
        /// Containers open, the outermost four of them in `frames`.
        var level = 0

        /// The item being read in an items list: where it began, `values` then, whether it has begun.
        var itemStart = 0
        var itemValuesBefore = 0
        var itemHasBytes = false
        var itemFirstByte = 0
        /// Items met so far in every items list, and in the current one.
        var itemIndex = 0
        var itemsInList = 0
        /// Once the budget or `maxItems` is reached: where the cut begins, `values` then, the items
        /// it holds, and the reason for the warning.
        var cut: (start: Int, valuesBefore: Int, items: Int, keptItems: Int, overValues: Bool)?

        /// Fields and items left out beyond the first of each, for one line each.
        var moreFields = 0
        var moreItems = 0
        var firstLines: (field: String?, item: String?) = (nil, nil)
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

        init(lineOffset: Int, documentValues: Int, itemValues: Int) {
            self.lineOffset = lineOffset
            self.documentValues = documentValues
            self.itemValues = itemValues
        }

        mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            JSONShape.walk(bytes) { index, byte, token in
                switch byte {
                case UInt8(ascii: "\""):
                    noteItemBytes(at: index)
                    if let token, let last = frames.indices.last, level == frames.count, frames[last].isObject,
                        frames[last].expectsKey
                    {
                        frames[last].expectsKey = false
                        frames[last].key = FeedParser.decodedKey(UnsafeBufferPointer(rebasing: bytes[token]))
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    noteItemBytes(at: index)
                    open(isObject: byte == UInt8(ascii: "{"), at: index)
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    close(at: index)
                case UInt8(ascii: ","):
                    if level == 2, frames.count == 2, frames[1].role == .items {
                        endItem(at: index)
                        values += 1
                        beginItem(after: index)
                    } else {
                        values += 1
                        if level == frames.count, let last = frames.indices.last, frames[last].isObject {
                            frames[last].expectsKey = true
                        }
                    }
                case UInt8(ascii: ":"):
                    values += 1
                case 0x20, 0x0A, 0x0D, 0x09:
                    break
                default:
                    noteItemBytes(at: index)
                }
                return true
            }
            finish()
        }

        private mutating func noteItemBytes(at index: Int) {
            guard !itemHasBytes, frames.count >= 2, frames[1].role == .items, level >= 2 else { return }
            itemHasBytes = true
            itemFirstByte = index
        }

        private mutating func open(isObject: Bool, at index: Int) {
            level += 1
            let valuesBefore = values
            values += 1
            guard level <= 4 else { return }
            let role: Frame.Role
            switch frames.count {
            case 0: role = .root
            case 1:
                // `items` as an object (PHP's `{"0": {…}}`, which the parser reads too) is not left
                // out whole: its members are not told apart here, so it counts as the feed's own.
                let isItems = frames[0].isObject && frames[0].key == Array("items".utf8)
                role = isItems ? (isObject ? .inside : .items) : .field
            case 2: role = frames[1].role == .items ? .item : .inside
            default: role = frames[2].role == .item ? .field : .inside
            }
            frames.append(
                Frame(role: role, isObject: isObject, start: index, valuesBefore: valuesBefore, expectsKey: isObject))
            if role == .items {
                itemsInList = 0
                beginItem(after: index)
            }
        }

        private mutating func close(at index: Int) {
            guard level > 0 else { return }
            defer { level -= 1 }
            guard level <= 4, let frame = frames.popLast() else { return }
            switch frame.role {
            case .items:
                endItem(at: index)
                if let cut {
                    replace(cut.start..<index, with: "")
                    values = cut.valuesBefore
                    if cut.overValues {
                        warnings.append(
                            "the feed's items hold more than \(documentValues) JSON values in all: feedsite read the first \(cut.keptItems) (feeds list their newest first); the other \(cut.items) were left out"
                        )
                    } else {
                        warnings.append(FeedParser.tooManyItemsWarning(total: FeedParser.maxItems + cut.items))
                    }
                    self.cut = nil
                }
            case .field where cut == nil:
                let held = values - frame.valuesBefore
                guard held > itemValues else { break }
                replace(frame.start..<(index + 1), with: "null")
                values -= held
                let owner = frames.count == 1 ? "the feed's" : "item \(itemIndex + 1)'s"
                let key = frames.last?.key ?? []
                let name = key.isEmpty ? "value" : "\"\(String(decoding: key.prefix(80), as: UTF8.self))\""
                if firstLines.field == nil {
                    firstLines.field =
                        "line \(line(of: frame.start)): \(owner) \(name) holds more than \(itemValues) JSON values (no feed needs that many): it was left out"
                        + (frames.count == 1 ? "" : ", the item kept")
                } else {
                    moreFields += 1
                }
            default:
                break
            }
        }

        private mutating func beginItem(after index: Int) {
            itemStart = index + 1
            itemValuesBefore = values
            itemHasBytes = false
        }

        /// An item of an items list ends at `index` (its `,`, or the list's `]`).
        private mutating func endItem(at index: Int) {
            guard itemHasBytes else { return }
            defer {
                itemIndex += 1
                itemsInList += 1
            }
            if var cut {
                cut.items += 1
                self.cut = cut
                return
            }
            let held = values - itemValuesBefore + 1
            if held > itemValues {
                // `null`, not nothing: the items after it keep their numbers in later warnings.
                replace(itemStart..<index, with: "null")
                values -= held - 1
                leftOutItems.insert(itemIndex)
                if firstLines.item == nil {
                    firstLines.item =
                        "line \(line(of: itemFirstByte)): item \(itemIndex + 1) holds more than \(itemValues) JSON values (no post needs that many): it was left out"
                } else {
                    moreItems += 1
                }
                return
            }
            let overValues = values > documentValues
            if overValues || itemIndex >= FeedParser.maxItems {
                // With the comma before it, when it has one; an emptied list's `[` still counts
                // its first element, as `JSONShape` does.
                let start = itemsInList > 0 ? itemStart - 1 : itemStart
                cut = (start, values - held + (itemsInList > 0 ? 0 : 1), 1, itemIndex, overValues)
            }
        }

        private mutating func finish() {
            if let field = firstLines.field {
                warnings.insert(field + (moreFields > 0 ? " (and \(moreFields) more like it)" : ""), at: 0)
            }
            if let item = firstLines.item {
                warnings.insert(item + (moreItems > 0 ? " (and \(moreItems) more like it)" : ""), at: 0)
            }
        }

        /// Replaces `range`, dropping the replacements inside it.
        private mutating func replace(_ range: Range<Int>, with text: String) {
            while let last = replacements.last, last.range.lowerBound >= range.lowerBound { replacements.removeLast() }
            replacements.append((range, text))
        }

        /// The document's line of a byte offset (counted only for the warnings).
        private func line(of offset: Int) -> Int {
            var lines = 1
            for byte in bytes[..<offset] where byte == 0x0A { lines += 1 }
            return lines + lineOffset
        }
    }
}
