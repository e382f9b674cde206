import Foundation

/// The common case of `URLPolicy` without Foundation's `URL` (hot path: every URL of every item;
/// see Benchmarks/RESULTS.md): an absolute http(s) URL with a plain `host[:port]` authority, made only of characters that
/// `URL(string:)` accepts as they are (so Foundation would return it unchanged), and references
/// resolved against one by RFC 3986 §5.2. Anything else (user info, IP literals, characters that
/// need percent-encoding) returns nil and takes the Foundation path. `URLPolicyTests` checks that
/// both paths agree.
package struct SimpleURL {
    /// The URL with its scheme lowercased.
    package let text: String
    /// `http` or `https`.
    package let scheme: String
    /// `host[:port]`.
    package let authority: Substring
    /// From the first `/` after the authority up to `?`, `#` or the end (possibly empty).
    package let path: Substring
    /// `?…` or empty.
    package let query: Substring

    package init?(_ string: String) {
        // Hot path (every URL of every item): the parts are found over the bytes, never by
        // comparing characters, then cut at those UTF-8 offsets.
        var bytes = string
        guard let offsets = bytes.withUTF8(Self.offsets) else { return nil }
        let utf8 = string.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        let scheme = offsets.isHTTPS ? "https" : "http"
        let afterColon = string[index(offsets.colon + 1)...]
        self.text = offsets.isLowercase ? string : scheme + ":" + afterColon
        self.scheme = scheme
        self.authority = string[index(offsets.colon + 3)..<index(offsets.authorityEnd)]
        self.path = string[index(offsets.authorityEnd)..<index(offsets.pathEnd)]
        self.query = string[index(offsets.pathEnd)..<index(offsets.queryEnd)]
    }

    /// Where the parts of a simple URL end, as UTF-8 offsets.
    private struct Offsets {
        var isHTTPS: Bool
        /// The scheme is written in lowercase.
        var isLowercase: Bool
        var colon, authorityEnd, pathEnd, queryEnd: Int
    }

    private static func offsets(_ bytes: UnsafeBufferPointer<UInt8>) -> Offsets? {
        let count = bytes.count
        guard let colon = ByteScan.firstIndex(of: UInt8(ascii: ":"), in: bytes, from: 0, to: count),
            colon == 4 || colon == 5
        else { return nil }
        var isLowercase = true
        for (offset, expected) in "https".utf8.prefix(colon).enumerated() {
            let byte = bytes[offset]
            guard byte | 0x20 == expected else { return nil }
            if byte != expected { isLowercase = false }
        }
        let authorityStart = colon + 3
        guard authorityStart <= count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return nil }
        var authorityEnd = authorityStart
        while authorityEnd < count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            authorityEnd += 1
        }
        guard isPlainAuthority(UnsafeBufferPointer(rebasing: bytes[authorityStart..<authorityEnd])),
            isPlainTail(UnsafeBufferPointer(rebasing: bytes[authorityEnd...]))
        else { return nil }
        var pathEnd = authorityEnd
        while pathEnd < count, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        let queryEnd = ByteScan.firstIndex(of: UInt8(ascii: "#"), in: bytes, from: pathEnd, to: count) ?? count
        return Offsets(
            isHTTPS: colon == 5, isLowercase: isLowercase, colon: colon, authorityEnd: authorityEnd,
            pathEnd: pathEnd, queryEnd: queryEnd)
    }

    /// `reference` resolved against `base`, when both are simple; nil otherwise.
    package static func resolve(_ reference: String, against base: URL) -> String? {
        SimpleURL(base.absoluteString).flatMap { resolve(reference, against: $0) }
    }

    /// `reference` resolved against `base`, when it is simple; nil otherwise.
    package static func resolve(_ reference: String, against base: SimpleURL) -> String? {
        // A reference with a scheme (a colon in its first segment) is not relative.
        let firstSegment = reference.utf8.prefix {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        }
        var referenceBytes = reference
        guard !firstSegment.contains(UInt8(ascii: ":")), referenceBytes.withUTF8(isPlainTail) else { return nil }
        let prefix = base.scheme + "://" + base.authority
        if reference.hasPrefix("//") { return SimpleURL(base.scheme + ":" + reference)?.text }
        let pathEnd =
            reference.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? reference.endIndex
        let referencePath = reference[..<pathEnd]
        let suffix = reference[pathEnd...]
        let path: String
        if referencePath.isEmpty {
            // `?q` keeps the base path; `#f` keeps the base path and query.
            path = String(base.path) + (suffix.hasPrefix("#") ? String(base.query) : "")
        } else if referencePath.hasPrefix("/") {
            path = removingDotSegments(referencePath)
        } else {
            let directory: Substring =
                base.path.isEmpty
                ? "/" : base.path[...(base.path.lastIndex(of: "/") ?? base.path.startIndex)]
            path = removingDotSegments(directory + referencePath)
        }
        let resolved = prefix + (path.isEmpty && !referencePath.isEmpty ? "/" : path) + suffix
        // Simple parts make a simple URL, already in its published form (a lowercase scheme): it
        // need not be parsed again.
        assert(SimpleURL(resolved)?.text == resolved, "\(reference) against \(base.text)")
        return resolved
    }

    /// RFC 3986 §5.2.4.
    package static func removingDotSegments(_ path: some StringProtocol) -> String {
        // A path without a segment that starts with a dot has none to remove (most of them).
        var previous = UInt8(ascii: "/")
        if !path.utf8.contains(where: { byte in
            defer { previous = byte }
            return byte == UInt8(ascii: ".") && previous == UInt8(ascii: "/")
        }) {
            return String(path)
        }
        // Over the UTF-8 bytes, a segment at a time, not over `Substring`s (whose `hasPrefix`
        // compares characters): the usual `../tags/x` links have dot segments.
        let input = Array(path.utf8)
        let count = input.count
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var output: [UInt8] = []
        output.reserveCapacity(count)
        /// Where each segment moved to `output` starts, so the last one can be removed.
        var segmentStarts: [Int] = []
        func byte(_ index: Int) -> UInt8? { index < count ? input[index] : nil }
        func removeLastSegment() {
            guard let start = segmentStarts.popLast() else { return }
            output.removeSubrange(start...)
        }
        var i = 0
        while i < count {
            let first = input[i], second = byte(i + 1), third = byte(i + 2)
            if first == dot, second == dot, third == slash {
                i += 3  // "../"
            } else if first == dot, second == slash {
                i += 2  // "./"
            } else if first == slash, second == dot, third == slash {
                i += 2  // "/./" → "/"
            } else if first == slash, second == dot, i + 2 == count {
                // "/." at the end → "/", moved to the output as the last segment.
                segmentStarts.append(output.count)
                output.append(slash)
                i = count
            } else if first == slash, second == dot, third == dot, byte(i + 3) == slash {
                i += 3  // "/../" → "/"
                removeLastSegment()
            } else if first == slash, second == dot, third == dot, i + 3 == count {
                removeLastSegment()  // "/.." at the end → "/"
                segmentStarts.append(output.count)
                output.append(slash)
                i = count
            } else if first == dot, i + 1 == count || (second == dot && i + 2 == count) {
                i = count  // "." or ".."
            } else {
                // The first segment, with its leading "/", up to the next "/".
                var end = first == slash ? i + 1 : i
                while end < count, input[end] != slash { end += 1 }
                segmentStarts.append(output.count)
                output.append(contentsOf: input[i..<end])
                i = end
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A DNS name or IPv4 address with an optional numeric port.
    private static func isPlainAuthority(_ authority: UnsafeBufferPointer<UInt8>) -> Bool {
        var sawColon = false
        var hostLength = 0
        var portLength = 0
        for byte in authority {
            switch byte {
            case UInt8(ascii: ":"):
                guard !sawColon else { return false }
                sawColon = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if sawColon { portLength += 1 } else { hostLength += 1 }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                guard !sawColon else { return false }
                hostLength += 1
            default:
                return false
            }
        }
        return hostLength > 0 && (!sawColon || portLength > 0)
    }

    /// Path, query and fragment characters RFC 3986 allows unencoded, `%XX` escapes, one `#`.
    private static func isPlainTail(_ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        var sawHash = false
        var bytes = tail.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
                UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "#"):
                guard !sawHash else { return false }
                sawHash = true
            case UInt8(ascii: "%"):
                guard let high = bytes.next(), let low = bytes.next(), isHex(high), isHex(low) else { return false }
            default:
                return false
            }
        }
        return true
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
