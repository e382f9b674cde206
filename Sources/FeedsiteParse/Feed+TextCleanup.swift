import Foundation

extension Feed {
    /// Replaces every C1 control character (U+0080–U+009F) in the feed's text with the character
    /// windows-1252 has at that byte (U+0096 → `–`, U+0092 → `’`), or U+FFFD for the five bytes it
    /// leaves undefined: they are what a Latin-1 decoder, a numeric reference like `&#150;` or a
    /// JSON `\u0092` makes of a windows-1252 byte, and a control character never belongs on a page.
    /// Identifiers and URLs are left as they are.
    mutating func replaceC1Controls() {
        title = title.replacingC1Controls
        description = description?.replacingC1Controls
        copyright = copyright?.replacingC1Controls
        generator = generator?.replacingC1Controls
        authors = authors.map(\.replacingC1Controls)
        publisher = publisher?.replacingC1Controls
        categories = categories.map(\.replacingC1Controls)
        if let imageTitle = image?.title { image?.title = imageTitle.replacingC1Controls }
        for index in items.indices {
            items[index].mapText(\.replacingC1Controls, person: \.replacingC1Controls)
            if let imageTitle = items[index].image?.title { items[index].image?.title = imageTitle.replacingC1Controls }
        }
    }
}

extension Feed {
    /// Undoes UTF-8 text decoded as Latin-1 or windows-1252 and encoded as UTF-8 again (`FÃ³rmula`
    /// for `Fórmula`, `donâ€™t` for `don’t`): a common slip of publishing software, which Python's
    /// feedparser undoes too. Only for documents that were UTF-8, and only in a value that reads as
    /// valid UTF-8 once its characters are turned back into those bytes — normal text fails that at
    /// its first accented letter (`é` is not followed by a continuation byte), so it stays as it is.
    mutating func repairDoubleEncodedText() {
        title = title.undoingDoubleEncoding
        description = description?.undoingDoubleEncoding
        authors = authors.map(\.undoingDoubleEncoding)
        categories = categories.map(\.undoingDoubleEncoding)
        for index in items.indices {
            items[index].mapText(\.undoingDoubleEncoding, person: \.undoingDoubleEncoding)
        }
    }
}

extension FeedItem {
    /// Applies `text` to the item's title, description, content and categories, and `person` to its
    /// authors: the text a cleanup pass reads (identifiers and URLs are left as they are).
    fileprivate mutating func mapText(_ text: (String) -> String, person: (Person) -> Person) {
        title = text(title)
        description = description.map(text)
        content = content.map(text)
        authors = authors.map(person)
        categories = categories.map(text)
    }
}

extension Person {
    fileprivate var replacingC1Controls: Person {
        Person(name: name?.replacingC1Controls, email: email?.replacingC1Controls, uri: uri)
    }

    fileprivate var undoingDoubleEncoding: Person {
        Person(name: name?.undoingDoubleEncoding, email: email, uri: uri)
    }
}

extension String {
    /// The string with double-encoded UTF-8 undone (see `Feed.repairDoubleEncodedText`), or the
    /// string itself. Every double-encoded string holds U+00C2–U+00EF (the lead bytes read as
    /// Latin-1), whose UTF-8 begins with 0xC3: a `memchr` for it skips the rest.
    var undoingDoubleEncoding: String {
        var copy = self
        let mayBeDoubleEncoded = copy.withUTF8 { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, 0xC3, buffer.count) != nil
        }
        guard mayBeDoubleEncoded else { return self }
        // First a pass that only checks, so ordinary text (which fails at its first accent) costs no copy.
        // A space where a continuation byte belongs was U+00A0 (byte 0xA0: the second half of a
        // no-break space `Â `, of `à`, of Cyrillic `Р`) until whitespace was collapsed (by the
        // publisher: `FeedText.collapseWhitespace` keeps it after U+00C2–U+00DF); it counts as
        // 0xA0, but only beside a sequence whose continuation survived or a `Â ` (no word has `Â`
        // before a space, while Portuguese capitals end in `Ã`: `AMANHÃ É`).
        var pending = 0
        var lead: UInt8 = 0
        var sawSequence = false
        for scalar in unicodeScalars {
            guard let byte = Self.singleByte(scalar) else { return self }
            if pending > 0 {
                guard byte & 0xC0 == 0x80 || byte == 0x20 else { return self }
                if byte != 0x20 || lead == 0xC2 { sawSequence = true }
                pending -= 1
            } else if byte >= 0x80 {
                lead = byte
                switch byte {
                case 0xC2...0xDF: pending = 1
                case 0xE0...0xEF: pending = 2
                case 0xF0...0xF4: pending = 3
                default: return self
                }
            }
        }
        guard pending == 0, sawSequence else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unicodeScalars.count)
        pending = 0
        let scalars = Array(unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            guard let byte = Self.singleByte(scalar) else { return self }
            if pending > 0 {
                bytes.append(byte == 0x20 ? 0xA0 : byte)
                pending -= 1
                // `à` before a word (`à la`): its 0xA0 and the space after it were collapsed into one.
                if byte == 0x20, bytes.count >= 2, bytes[bytes.count - 2] == 0xC3, index + 1 < scalars.count,
                    scalars[index + 1].properties.isAlphabetic || scalars[index + 1].properties.numericType != nil
                {
                    bytes.append(0x20)
                }
            } else {
                bytes.append(byte)
                switch byte {
                case 0xC2...0xDF: pending = 1
                case 0xE0...0xEF: pending = 2
                case 0xF0...0xF4: pending = 3
                default: break
                }
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }

    /// The byte a Latin-1 or windows-1252 decoder turned into `scalar`.
    private static func singleByte(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.value < 0x100 { return UInt8(scalar.value) }
        return windows1252Bytes[scalar.value]
    }

    /// windows-1252's characters at 0x80–0x9F, back to their bytes.
    private static let windows1252Bytes: [UInt32: UInt8] = {
        var table: [UInt32: UInt8] = [:]
        for byte in UInt8(0x80)...UInt8(0x9F) {
            let scalar = FeedParser.windows1252Scalar(byte)
            if scalar > 0xFF { table[scalar] = byte }
        }
        return table
    }()

    /// The string with C1 controls replaced as `Feed.replaceC1Controls` describes; the string itself
    /// (no copy) when it has none, which a `memchr` for their UTF-8 lead byte 0xC2 decides.
    var replacingC1Controls: String {
        var copy = self
        let hasC1 =
            copy.withUTF8 { buffer -> Bool in
                guard let base = buffer.baseAddress else { return false }
                var start = 0
                while start < buffer.count, let found = memchr(base + start, 0xC2, buffer.count - start) {
                    let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                    if index + 1 < buffer.count, (0x80...0x9F).contains(buffer[index + 1]) { return true }
                    start = index + 1
                }
                return false
            }
        guard hasC1 else { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) {
                let mapped = FeedParser.windows1252Scalar(UInt8(scalar.value))
                scalars.append(Unicode.Scalar((0x80...0x9F).contains(mapped) ? 0xFFFD : mapped) ?? "\u{FFFD}")
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
