import FeedsiteShared
import Foundation
import Testing

@testable import FeedsiteParse

/// `JSONFeedBudget` rewrites a document's bytes (values become `null`, items are cut with their
/// commas): whatever it does, well-formed JSON must stay well-formed, within budget.
struct JSONFeedBudgetTests {
    /// Some space, or none, or a line break.
    static func space(_ random: inout SplitMix64) -> String {
        ["", "", " ", "\n", " \n  "].randomElement(using: &random)!
    }

    /// A JSON value: strings hold the bytes the scan must skip (`,` `]` `}` `:` `"` `\`).
    static func value(depth: Int, _ random: inout SplitMix64) -> String {
        let kind = depth > 3 ? Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<6, using: &random)
        switch kind {
        case 0: return String(Int.random(in: -5...500, using: &random))
        case 1: return [#""a,b]""#, #""}{:""#, #""q\"x""#, #""back\\""#, #""""#].randomElement(using: &random)!
        case 2: return ["true", "false", "null"].randomElement(using: &random)!
        case 3, 4:
            let count = Int.random(in: 0...5, using: &random)
            let elements = (0..<count).map { _ in space(&random) + value(depth: depth + 1, &random) + space(&random) }
            return "[" + elements.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0...4, using: &random)
            let fields = (0..<count).map { index in
                space(&random) + "\"k\(index)\":" + space(&random) + value(depth: depth + 1, &random)
            }
            return "{" + fields.joined(separator: ",") + space(&random) + "}"
        }
    }

    /// A feed-shaped document: top-level fields, and one or two `items` lists of objects (some not
    /// objects at all) with fields of any size.
    static func document(_ random: inout SplitMix64) -> String {
        var fields = [#""version": "https://jsonfeed.org/version/1.1""#]
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            fields.append("\"x\(fields.count)\":" + space(&random) + value(depth: 1, &random))
        }
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let items = (0..<Int.random(in: 0...8, using: &random)).map { index -> String in
                guard Int.random(in: 0..<8, using: &random) > 0 else { return value(depth: 2, &random) }
                var item = ["\"id\": \"\(index)\""]
                for key in 0..<Int.random(in: 0...3, using: &random) {
                    item.append("\"f\(key)\":" + space(&random) + value(depth: 3, &random))
                }
                return space(&random) + "{" + item.joined(separator: ",") + "}" + space(&random)
            }
            fields.append("\"items\": [" + items.joined(separator: ",") + "]")
        }
        fields.shuffle(using: &random)
        return "{" + fields.map { space(&random) + $0 }.joined(separator: ",") + space(&random) + "}"
    }

    /// 3,000 generated documents against a budget of 30 values (6 in an item or value): each one
    /// rewritten is still JSON, holds the values the rewrite counted, within budget, and the items
    /// said to be left out are `null`.
    @Test func rewrittenDocumentsStayJSONWithinBudget() throws {
        var random = SplitMix64(seed: 29)
        var rewritten = 0
        for _ in 0..<3_000 {
            let text = Self.document(&random)
            let data = Data(text.utf8)
            guard (try? JSONSerialization.jsonObject(with: data)) != nil else {
                Issue.record("the generator wrote no JSON: \(text)")
                continue
            }
            let budget: JSONFeedBudget?
            do {
                budget = try JSONFeedBudget(data, lineOffset: 0, documentValues: 30, itemValues: 6)
            } catch {
                continue  // over budget outside its items: refused, nothing to check
            }
            guard let budget else {
                #expect(JSONShape(data).values <= 30, "\(text)")
                continue
            }
            rewritten += 1
            let object = try? JSONSerialization.jsonObject(with: budget.data) as? [String: Any]
            let output = String(decoding: budget.data, as: UTF8.self)
            #expect(object != nil, "not JSON after the rewrite:\n\(text)\n→\n\(output)")
            #expect(budget.values <= 30)
            #expect(JSONShape(budget.data).values == budget.values, "miscounted:\n\(text)\n→\n\(output)")
            if text.components(separatedBy: "\"items\"").count == 2, let items = object?["items"] as? [Any] {
                for index in budget.leftOutItems {
                    #expect(index < items.count && items[index] is NSNull, "item \(index + 1):\n\(text)\n→\n\(output)")
                }
            }
        }
        // The generator must reach the rewrite often, or the test proves little.
        #expect(rewritten > 1_000, "\(rewritten)")
    }

    /// `items` as an object (PHP's `{"0": {…}}`) is read as items by the parser: over budget, it is
    /// refused with the document rather than left out whole as an oversized value of the feed.
    @Test func itemsObjectIsNotLeftOutWhole() {
        let text = #"{"title": "T", "items": {"0": {"id": "1", "x": [1, 2, 3, 4, 5, 6, 7, 8]}, "1": {"id": "2"}}}"#
        #expect(throws: FeedParseError.self) {
            try JSONFeedBudget(Data(text.utf8), lineOffset: 0, documentValues: 14, itemValues: 6)
        }
        let list = #"{"title": "T", "items": [{"id": "1", "x": [1, 2, 3, 4, 5, 6, 7, 8]}, {"id": "2"}]}"#
        let budget = try? JSONFeedBudget(Data(list.utf8), lineOffset: 0, documentValues: 14, itemValues: 6)
        #expect(
            budget.map { String(decoding: $0.data, as: UTF8.self) }
                == #"{"title": "T", "items": [{"id": "1", "x": null}, {"id": "2"}]}"#)
    }
}
