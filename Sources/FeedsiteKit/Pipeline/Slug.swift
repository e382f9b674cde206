import Foundation

/// URL path segments for feeds and items: readable, ASCII, and stable across runs (derived only
/// from the feed's or item's own data, never from its position).
package enum Slug {
    /// `"Hello, Wörld! 2026"` → `"hello-world-2026"`; empty when the text has no Latin letter
    /// (CJK titles, punctuation, digits alone: `建国35周年` would give a bare `35`), in which case
    /// callers fall back to a hash.
    package static func make(_ text: String, maxLength: Int = 60) -> String {
        // Folded (diacritics, case, width) first, so `Wörld` gives `world`.
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var slug = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            append(scalar, to: &slug, &pendingDash)
        }
        return finished(slug, maxLength: maxLength)
    }

    /// One folded scalar of a slug: letters and digits kept, `ß` as `ss`, anything else a dash.
    private static func append(_ scalar: Unicode.Scalar, to slug: inout String, _ pendingDash: inout Bool) {
        let isAlphanumeric = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
        if isAlphanumeric {
            if pendingDash && !slug.isEmpty { slug.append("-") }
            pendingDash = false
            slug.unicodeScalars.append(scalar)
        } else if scalar == "ß" {
            if pendingDash && !slug.isEmpty { slug.append("-") }
            pendingDash = false
            slug += "ss"
        } else {
            pendingDash = true
        }
    }

    /// `slug` cut to `maxLength`, or empty when it has no letter: digits alone (the `35` of a
    /// Chinese title) do not tell a reader what the page is, and collide across feeds and years.
    private static func finished(_ slug: String, maxLength: Int) -> String {
        let slug = cut(slug, maxLength: maxLength)
        return slug.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } ? slug : ""
    }

    /// At most `maxLength` characters, cut at a dash so words stay whole.
    private static func cut(_ slug: String, maxLength: Int) -> String {
        guard slug.count > maxLength else { return slug }
        let cut = slug.prefix(maxLength)
        if let dash = cut.lastIndex(of: "-"), cut.distance(from: cut.startIndex, to: dash) > maxLength / 2 {
            return String(cut[..<dash])
        }
        return String(cut)
    }

    /// A short, stable hash of `text` (FNV-1a, 64 bit, base 36, 6 characters): deterministic across
    /// runs and machines, unlike Swift's seeded `Hasher`.
    package static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 36)
        return String(digits.suffix(6))
    }

    /// Gives every key a unique slug. Keys that already have one (`existing`, from earlier runs)
    /// keep it, so URLs never change once published. A new key gets the readable slug of its text;
    /// when that is empty, taken, or shared with another new key, `-<hash of key>` is appended, so
    /// the result depends only on the key, its text and what is already taken.
    ///
    /// - Parameters:
    ///   - entries: `(key, text)` pairs; `key` must be unique and stable (feed URL, item id).
    ///   - existing: slugs assigned in earlier runs, by key.
    ///   - fallback: the prefix used when `text` yields no readable slug (`item`, `feed`).
    package static func assign(
        _ entries: [(key: String, text: String)], existing: [String: String] = [:], fallback: String
    ) -> [String: String] {
        var slugs: [String: String] = [:]
        var taken: Set<String> = []
        for entry in entries {
            if let slug = existing[entry.key], !slug.isEmpty, taken.insert(slug).inserted {
                slugs[entry.key] = slug
            }
        }
        var byBase: [String: [String]] = [:]
        for entry in entries where slugs[entry.key] == nil {
            byBase[make(entry.text), default: []].append(entry.key)
        }
        for base in byBase.keys.sorted() {
            guard let keys = byBase[base] else { continue }
            for key in keys.sorted() {
                var slug = base
                if base.isEmpty || keys.count > 1 || taken.contains(base) {
                    slug = (base.isEmpty ? fallback : base) + "-" + hash(key)
                }
                // A hashed slug could in theory equal another one; a second round keeps it unique
                // and deterministic.
                while taken.contains(slug) {
                    slug += "-" + hash(key + slug)
                }
                taken.insert(slug)
                slugs[key] = slug
            }
        }
        return slugs
    }
}
