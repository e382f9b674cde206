import FeedsiteShared
import Foundation

/// `feedsite parse`: what a feed was read as, for people (`humanDescription`) and for tools
/// (`inspectionJSON`, exactly the DESIGN §2 schema).
extension Feed {
    /// The DESIGN §2 JSON: raw values after one XML decode, dates as ISO 8601 UTC, absent values
    /// omitted, keys sorted so the output diffs cleanly.
    package func inspectionJSON() -> Data {
        func date(_ value: Date?) -> String? { value.map(InternetDate.rfc3339) }
        func people(_ people: [Person]) -> [[String: String]] {
            people.map { person in
                var entry: [String: String] = [:]
                entry["name"] = person.name
                entry["email"] = person.email
                entry["uri"] = person.uri
                return entry
            }
        }
        func image(_ image: FeedImage?) -> [String: String]? {
            guard let image else { return nil }
            var entry = ["url": image.url]
            entry["title"] = image.title
            entry["link"] = image.link
            return entry
        }
        var document: [String: Any] = [
            "format": format.rawValue, "version": version, "title": title, "authors": people(authors),
            "categories": categories, "warnings": warnings,
        ]
        document["description"] = description
        document["link"] = link
        document["feedLink"] = feedLink
        document["language"] = language
        document["copyright"] = copyright
        document["generator"] = generator
        document["updated"] = date(updated)
        document["published"] = date(published)
        document["image"] = image(self.image)
        document["publisher"] = publisher.map { people([$0])[0] }
        document["items"] = items.map { item -> [String: Any] in
            var entry: [String: Any] = [
                "id": item.id, "title": item.title, "authors": people(item.authors), "categories": item.categories,
                "enclosures": item.enclosures.map { enclosure -> [String: Any] in
                    var value: [String: Any] = ["url": enclosure.url]
                    value["length"] = enclosure.length
                    value["type"] = enclosure.type
                    return value
                },
            ]
            entry["link"] = item.link
            entry["description"] = item.description
            entry["content"] = item.content
            entry["published"] = date(item.published)
            entry["updated"] = date(item.updated)
            entry["image"] = image(item.image)
            return entry
        }
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: document, options: options)) ?? Data("{}".utf8)
    }

    /// Format, title, link, item count and warnings, then one line per item.
    package var humanDescription: String {
        var lines = [
            "format:   \(format.rawValue) \(version)",
            "title:    \(title)",
            "link:     \(link ?? "—")",
            "items:    \(items.count)",
        ]
        if !warnings.isEmpty {
            lines.append("warnings:")
            lines += warnings.map { "  \($0)" }
        }
        for (index, item) in items.enumerated() {
            let when = (item.published ?? item.updated).map(InternetDate.rfc3339) ?? "no date"
            let derived = item.isTitleDerived ? " (title derived from content)" : ""
            lines.append("\(index + 1). \(when)  \(item.title)\(derived)  \(item.link ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
