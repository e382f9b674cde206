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
            items[index].title = items[index].title.replacingC1Controls
            items[index].description = items[index].description?.replacingC1Controls
            items[index].content = items[index].content?.replacingC1Controls
            items[index].authors = items[index].authors.map(\.replacingC1Controls)
            items[index].categories = items[index].categories.map(\.replacingC1Controls)
            if let imageTitle = items[index].image?.title { items[index].image?.title = imageTitle.replacingC1Controls }
        }
    }
}

extension Person {
    fileprivate var replacingC1Controls: Person {
        Person(name: name?.replacingC1Controls, email: email?.replacingC1Controls, uri: uri)
    }
}

extension String {
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
