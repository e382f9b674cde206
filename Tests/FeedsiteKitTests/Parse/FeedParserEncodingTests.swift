import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One legacy encoding: the label a feed would declare, the iconv name used to produce the test
/// bytes, and text that needs the encoding's non-ASCII repertoire.
struct EncodingCase: Sendable, CustomTestStringConvertible {
    var label: String
    var iconvName: String
    var text: String
    var testDescription: String { label }
}

@Suite struct FeedParserEncodingTests {
    /// UTF-8 text → `encoding`, with glibc's iconv directly (not through the parser's converter), so
    /// the bytes are what a server using that encoding would send.
    static func encode(_ text: String, as encoding: String) throws -> Data {
        let converter = iconv_open(encoding, "UTF-8")
        try #require(converter != iconv_t(bitPattern: -1), "iconv cannot encode \(encoding)")
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        let outputCount = output.count
        let result = input.withUnsafeMutableBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer -> (status: Int, written: Int) in
                var inputPointer = inputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inputLeft = inputBuffer.count
                var outputPointer = outputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outputLeft = outputCount
                let status = iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft)
                return (status, outputCount - outputLeft)
            }
        }
        try #require(result.status != -1, "\(text) is not representable in \(encoding)")
        return Data(output[0..<result.written])
    }

    static func rss(title: String, declaration: String? = nil) -> String {
        (declaration.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? "")
            + "<rss version=\"2.0\"><channel><title>Feed</title>\n<item><title>\(title)</title></item></channel></rss>"
    }

    static let legacyEncodings: [EncodingCase] = [
        .init(label: "ISO-8859-1", iconvName: "ISO-8859-1", text: "Grüße aus Köln ½ ¿qué?"),
        .init(label: "ISO-8859-2", iconvName: "ISO-8859-2", text: "Zażółć gęślą jaźń"),
        .init(label: "ISO-8859-3", iconvName: "ISO-8859-3", text: "Ħaġar Qim u ż"),
        .init(label: "ISO-8859-4", iconvName: "ISO-8859-4", text: "Ģimene ļoti ŗ"),
        .init(label: "ISO-8859-5", iconvName: "ISO-8859-5", text: "Привет, мир"),
        .init(label: "ISO-8859-6", iconvName: "ISO-8859-6", text: "مرحبا بالعالم"),
        .init(label: "ISO-8859-7", iconvName: "ISO-8859-7", text: "Καλημέρα κόσμε"),
        .init(label: "ISO-8859-8", iconvName: "ISO-8859-8", text: "שלום עולם"),
        .init(label: "ISO-8859-9", iconvName: "ISO-8859-9", text: "Günaydın İstanbul ş ğ"),
        .init(label: "ISO-8859-10", iconvName: "ISO-8859-10", text: "Þórður ŋ ŧ"),
        .init(label: "ISO-8859-11", iconvName: "ISO-8859-11", text: "สวัสดีชาวโลก"),
        .init(label: "ISO-8859-13", iconvName: "ISO-8859-13", text: "Ąžuolas ir ėglė"),
        .init(label: "ISO-8859-14", iconvName: "ISO-8859-14", text: "Ŵyn ḃ ẁ"),
        .init(label: "ISO-8859-15", iconvName: "ISO-8859-15", text: "5 € l'œuvre Šš Žž"),
        .init(label: "ISO-8859-16", iconvName: "ISO-8859-16", text: "Bună ziua, Școală Țară"),
        .init(label: "windows-1250", iconvName: "WINDOWS-1250", text: "Příliš žluťoučký kůň „úpěl“"),
        .init(label: "windows-1251", iconvName: "WINDOWS-1251", text: "Привет — «мир»"),
        .init(label: "windows-1252", iconvName: "WINDOWS-1252", text: "“Café” € – naïve"),
        .init(label: "windows-1253", iconvName: "WINDOWS-1253", text: "Καλημέρα κόσμε …"),
        .init(label: "windows-1254", iconvName: "WINDOWS-1254", text: "Günaydın İstanbul ‰"),
        .init(label: "windows-1255", iconvName: "WINDOWS-1255", text: "שלום עולם ₪"),
        .init(label: "windows-1256", iconvName: "WINDOWS-1256", text: "مرحبا بالعالم"),
        .init(label: "windows-1257", iconvName: "WINDOWS-1257", text: "Ąžuolas ir ėglė"),
        .init(label: "windows-1258", iconvName: "WINDOWS-1258", text: "Đông Hà"),
        .init(label: "KOI8-R", iconvName: "KOI8-R", text: "Привет, мир"),
        // GB2312 and GBK are both read as GB18030, their superset.
        .init(label: "GB2312", iconvName: "GB2312", text: "你好，世界"),
        .init(label: "GBK", iconvName: "GBK", text: "你好，世界 丟"),
        .init(label: "GB18030", iconvName: "GB18030", text: "你好，世界 €"),
        .init(label: "Big5", iconvName: "BIG5", text: "臺灣新聞報導"),
        .init(label: "EUC-JP", iconvName: "EUC-JP", text: "日本語のニュース"),
        .init(label: "Shift_JIS", iconvName: "SHIFT_JIS", text: "日本語のニュース"),
        .init(label: "EUC-KR", iconvName: "EUC-KR", text: "한국어 뉴스"),
    ]

    /// Every legacy encoding, declared in the XML declaration, round-trips a non-ASCII title.
    @Test(arguments: legacyEncodings)
    func declaredLegacyEncoding(_ encoding: EncodingCase) throws {
        let data = try Self.encode(Self.rss(title: encoding.text, declaration: encoding.label), as: encoding.iconvName)
        #expect(String(data: data, encoding: .utf8) == nil || encoding.text.allSatisfy(\.isASCII) == false)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.first?.title == encoding.text)
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    /// The same bytes with no declaration, labelled only by the HTTP header, also round-trip.
    @Test(arguments: legacyEncodings)
    func legacyEncodingFromHTTPHeader(_ encoding: EncodingCase) throws {
        let data = try Self.encode(Self.rss(title: encoding.text), as: encoding.iconvName)
        let feed = try FeedParser().parse(data, url: nil, contentType: "text/xml; charset=\"\(encoding.label)\"")
        #expect(feed.items.first?.title == encoding.text)
    }

    /// UTF-16/32 in both byte orders, with a byte order mark and without one (recognised by `<\0`).
    @Test(arguments: ["UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"], [true, false])
    func wideUnicode(_ encoding: String, withBOM: Bool) throws {
        let text = "Grüße, 你好, 🍏"
        let declared = encoding.hasPrefix("UTF-16") ? "UTF-16" : "UTF-32"
        let data = try Self.encode(
            (withBOM ? "\u{FEFF}" : "") + Self.rss(title: text, declaration: declared), as: encoding)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.first?.title == text)
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    /// Known bytes, independent of any converter: KOI8-R "Привет" is F0 D2 C9 D7 C5 D4.
    @Test func koi8rKnownBytes() throws {
        var data = Data("<?xml version='1.0' encoding='koi8-r'?><rss version='2.0'><channel><title>".utf8)
        data.append(contentsOf: [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4])
        data.append(Data("</title></channel></rss>".utf8))
        #expect(try FeedParser().parse(data, url: nil).title == "Привет")
    }

    @Test func utf8BOMAndWhitespaceBeforeDeclaration() throws {
        let body = Self.rss(title: "Grüße", declaration: "UTF-8")
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(("\n \t\r\n" + body).utf8))
        #expect(try FeedParser().parse(data, url: nil).items.first?.title == "Grüße")
        // Whitespace before a declaration that names a legacy encoding: the declaration still counts.
        let latin = try Self.encode(
            "\n\n  " + Self.rss(title: "Привет", declaration: "windows-1251"), as: "WINDOWS-1251")
        #expect(try FeedParser().parse(latin, url: nil).items.first?.title == "Привет")
    }

    /// A BOM wins over both the header and the declaration.
    @Test func byteOrderMarkWinsOverEverything() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(Self.rss(title: "Grüße", declaration: "ISO-8859-1").utf8))
        let feed = try FeedParser().parse(data, url: nil, contentType: "application/rss+xml; charset=koi8-r")
        #expect(feed.items.first?.title == "Grüße")
        let utf16 = try Self.encode("\u{FEFF}" + Self.rss(title: "Grüße", declaration: "ISO-8859-1"), as: "UTF-16BE")
        #expect(
            try FeedParser().parse(utf16, url: nil, contentType: "text/xml; charset=windows-1251").items.first?.title
                == "Grüße")
    }

    /// `application/*xml` charset beats the XML declaration (RFC 7303 §3.2).
    @Test(arguments: ["application/rss+xml", "application/atom+xml", "application/xml", "application/rdf+xml"])
    func applicationXMLHeaderBeatsDeclaration(_ mediaType: String) throws {
        let data = try Self.encode(Self.rss(title: "Привет", declaration: "ISO-8859-1"), as: "WINDOWS-1251")
        let feed = try FeedParser().parse(data, url: nil, contentType: "\(mediaType); charset=windows-1251")
        #expect(feed.items.first?.title == "Привет")
        // Without the header, the (wrong) declaration is believed.
        #expect(try FeedParser().parse(data, url: nil).items.first?.title != "Привет")
    }

    /// The declaration beats a `text/*` charset: servers stamp their default charset on every file.
    @Test func declarationBeatsTextHeader() throws {
        let data = try Self.encode(Self.rss(title: "Привет", declaration: "KOI8-R"), as: "KOI8-R")
        for header in ["text/xml; charset=ISO-8859-1", "text/html;charset=utf-8", "TEXT/XML; Charset=\"windows-1252\""]
        {
            #expect(try FeedParser().parse(data, url: nil, contentType: header).items.first?.title == "Привет")
        }
    }

    /// With no declaration, a `text/*` charset beats the UTF-8 guess and the windows-1252 fallback.
    @Test func textHeaderBeatsGuessing() throws {
        let data = try Self.encode(Self.rss(title: "Привет"), as: "KOI8-R")
        let feed = try FeedParser().parse(data, url: nil, contentType: "text/xml; charset=koi8-r")
        #expect(feed.items.first?.title == "Привет")
        #expect(feed.warnings.isEmpty)
        // A header without charset, or on another media type, gives no charset: fallback with a warning.
        let guessed = try FeedParser().parse(data, url: nil, contentType: "application/json; charset=koi8-r")
        #expect(guessed.warnings.contains { $0.contains("windows-1252") })
    }

    @Test func unknownAndImpossibleLabelsAreSkippedWithWarnings() throws {
        let data = Data(Self.rss(title: "Grüße", declaration: "UTF-16").utf8)
        let feed = try FeedParser().parse(data, url: nil, contentType: "application/xml; charset=x-no-such-thing")
        #expect(feed.items.first?.title == "Grüße")
        #expect(feed.warnings.contains("ignored the unknown encoding 'x-no-such-thing' named by the HTTP Content-Type"))
        #expect(
            feed.warnings.contains(
                "ignored the encoding 'UTF-16' named by the XML declaration: the document is not in it"))
    }

    @Test func invalidBytesInDeclaredEncodingBecomeReplacementCharacters() throws {
        var data = try Self.encode(Self.rss(title: "日本", declaration: "EUC-JP"), as: "EUC-JP")
        let marker = try #require(data.range(of: Data("</title></item>".utf8)))
        data.insert(0xFF, at: marker.lowerBound)  // never valid in EUC-JP
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.count == 1)
        #expect(feed.items.first?.title.hasPrefix("日本") == true)
        #expect(feed.warnings.contains { $0.contains("not valid EUC-JP") })
    }

    /// Labels of single-byte encodings: bytes that are valid UTF-8 under them are read as UTF-8.
    static let singleByteLabels = [
        "ISO-8859-1", "latin1", "windows-1252", "windows-1251", "ISO-8859-15", "KOI8-R", "cp437", "macintosh",
    ]

    /// ø, –, é and 🍏: four non-ASCII characters (two, three, two and four bytes of UTF-8).
    @Test(arguments: singleByteLabels)
    func declaredSingleByteEncodingWithUTF8BytesIsReadAsUTF8(_ label: String) throws {
        let data = Data(Self.rss(title: "Brøndby – Café 🍏", declaration: label).utf8)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.first?.title == "Brøndby – Café 🍏")
        #expect(
            feed.warnings == [
                "the XML declaration names '\(label)' but the document's bytes are UTF-8 (4 non-ASCII characters,"
                    + #" all valid UTF-8); read it as UTF-8 (the declaration should say encoding="UTF-8")"#
            ])
    }

    /// A real Latin-1 `é` (0xE9, never valid UTF-8 on its own) keeps the declared encoding.
    @Test func declaredLatin1WithLatin1BytesStaysLatin1() throws {
        var data = Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf"#.utf8)
        data.append(0xE9)
        data.append(Data("</title></channel></rss>".utf8))
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.title == "Café")
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    /// One invalid byte against one UTF-8 character is too little to tell a mixture: the declaration
    /// is believed for the whole document, and the UTF-8 `é` (C3 A9) of the first title is two
    /// windows-1252 characters, `Ã` and `©`.
    @Test func declaredLatin1WithMostlyUTF8BytesStaysLatin1() throws {
        var data = Data(Self.rss(title: "Café", declaration: "ISO-8859-1").utf8)
        let marker = try #require(data.range(of: Data("<title>Feed</title>".utf8)))
        data.replaceSubrange(marker, with: Data("<title>Caf".utf8) + Data([0xE9]) + Data("</title>".utf8))
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.title == "Café")
        #expect(feed.items.first?.title == "CafÃ©")
        #expect(!feed.warnings.contains { $0.contains("bytes are UTF-8") }, "\(feed.warnings)")
    }

    /// A UTF-8 document with one byte pasted in from the declared single-byte encoding (FeedKit's
    /// `Ampersand.xml`: `besøge` in Latin-1 among UTF-8 titles): the four UTF-8 characters stay
    /// UTF-8 and the byte is read in the declared encoding: 0xF8 is `ø` in ISO-8859-1, 0xC0 `А`
    /// (Cyrillic) in windows-1251.
    @Test(arguments: [("ISO-8859-1", UInt8(0xF8), "ø"), ("windows-1251", UInt8(0xC0), "А")])
    func declaredSingleByteWithMostlyUTF8BytesIsReadAsMixed(_ label: String, _ byte: UInt8, _ character: String) throws
    {
        var data = Data(Self.rss(title: "Brøndby – Café 🍏", declaration: label).utf8)
        let marker = try #require(data.range(of: Data("<title>Feed</title>".utf8)))
        data.replaceSubrange(marker, with: Data("<title>bes".utf8) + Data([byte]) + Data("ge</title>".utf8))
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.title == "bes\(character)ge")
        #expect(feed.items.first?.title == "Brøndby – Café 🍏")
        #expect(
            feed.warnings == [
                "the XML declaration names '\(label)' but the document is UTF-8 (4 non-ASCII characters) except for"
                    + " 1 byte; read it as UTF-8, and that byte as '\(label)' (the declaration should say"
                    + #" encoding="UTF-8", and the text with that byte be saved as UTF-8)"#
            ])
    }

    /// UTF-8 `é` (C3 A9) is two half-width katakana in Shift_JIS, U+FF83 `ﾃ` and U+FF69 `ｩ`; EUC-KR's
    /// `호화` (C8 A3 C8 AD) is `ȣȭ` in UTF-8. Both are valid UTF-8, and both keep the declared encoding.
    @Test func declaredMultiByteEncodingWithUTF8LookingBytesKeepsIt() throws {
        let shiftJIS = try FeedParser().parse(Data(Self.rss(title: "Café", declaration: "Shift_JIS").utf8), url: nil)
        #expect(shiftJIS.items.first?.title == "Caf\u{FF83}\u{FF69}")
        #expect(shiftJIS.warnings.isEmpty, "\(shiftJIS.warnings)")

        let eucKR = try Self.encode(Self.rss(title: "호화", declaration: "EUC-KR"), as: "EUC-KR")
        #expect(String(data: eucKR, encoding: .utf8)?.contains("<title>ȣȭ</title>") == true)
        let korean = try FeedParser().parse(eucKR, url: nil)
        #expect(korean.items.first?.title == "호화")
        #expect(korean.warnings.isEmpty, "\(korean.warnings)")
    }

    /// The HTTP charset of a `text/xml` response, with no declaration: the same rule.
    @Test func textHeaderLatin1WithUTF8BytesIsReadAsUTF8() throws {
        let data = Data(Self.rss(title: "Grüße").utf8)
        let feed = try FeedParser().parse(data, url: nil, contentType: "text/xml; charset=iso-8859-1")
        #expect(feed.items.first?.title == "Grüße")
        #expect(
            feed.warnings == [
                "the HTTP Content-Type names 'iso-8859-1' but the document's bytes are UTF-8 (2 non-ASCII"
                    + " characters, all valid UTF-8); read it as UTF-8 (the header should say charset=utf-8)"
            ])
    }

    /// ASCII reads the same in every single-byte encoding: no warning, nothing to fix.
    @Test func asciiDeclaredLatin1HasNoWarning() throws {
        let decoded = FeedParser.decodeToUTF8(
            Data(Self.rss(title: "Plain &#233; text", declaration: "ISO-8859-1").utf8), contentType: nil)
        #expect(decoded.warnings.isEmpty)
        #expect(!decoded.isUTF8)
        let feed = try FeedParser().parse(Data(Self.rss(title: "Plain text", declaration: "ISO-8859-1").utf8), url: nil)
        #expect(feed.items.first?.title == "Plain text")
        #expect(feed.warnings.isEmpty, "\(feed.warnings)")
    }

    /// A document read as UTF-8 against its label is UTF-8 for the double-encoding repair too:
    /// `FÃ³rmula` (Ã and ³, two characters) is `Fórmula` encoded twice.
    @Test func utf8BytesUnderLatin1LabelGetDoubleEncodingRepair() throws {
        let data = Data(Self.rss(title: "FÃ³rmula 1", declaration: "ISO-8859-1").utf8)
        #expect(FeedParser.decodeToUTF8(data, contentType: nil).isUTF8)
        let feed = try FeedParser().parse(data, url: nil)
        #expect(feed.items.first?.title == "Fórmula 1")
        #expect(feed.warnings.contains { $0.contains("(2 non-ASCII characters, all valid UTF-8)") }, "\(feed.warnings)")
    }

    @Test(arguments: [
        ("ISO-8859-1", true), ("windows-1251", true), ("ISO-8859-15", true), ("KOI8-R", true), ("cp437", true),
        ("windows-1258", true), ("TIS-620", true), ("UTF-8", false), ("Shift_JIS", false), ("EUC-JP", false),
        ("EUC-KR", false), ("GBK", false), ("GB18030", false), ("Big5", false), ("ISO-2022-JP", false),
        ("ISO-2022-KR", false), ("EUC-TW", false), ("UTF-7", false), ("UTF-16LE", false),
    ])
    func singleByteEncodings(_ label: String, isSingleByte: Bool) throws {
        let encoding = try #require(FeedParser.TextEncoding(label: label))
        #expect(encoding.isSingleByte == isSingleByte)
    }

    @Test func mediaTypeParsing() {
        let type = FeedParser.MediaType("Application/RSS+XML ; foo=bar; CHARSET='ISO-8859-1'")
        #expect(type.type == "application/rss+xml")
        #expect(type.charset == "ISO-8859-1")
        #expect(type.isXML && !type.isText)
        #expect(FeedParser.MediaType("text/plain").charset == nil)
    }

    /// The declaration is rewritten to UTF-8 after transcoding, keeping everything else in place.
    @Test func declarationIsRewrittenAfterTranscoding() {
        let decoded = FeedParser.decodeToUTF8(
            Data("<?xml version='1.0' encoding = 'iso-8859-1' standalone='yes'?>\n<rss/>".utf8), contentType: nil)
        #expect(
            String(decoding: decoded.bytes, as: UTF8.self)
                == "<?xml version='1.0' encoding = 'UTF-8' standalone='yes'?>\n<rss/>")
    }

    /// JSON Feed is UTF-8 by definition, but a UTF-16 BOM or a legacy charset is still honoured.
    @Test func jsonFeedInUTF16() throws {
        let json = #"{"version":"https://jsonfeed.org/version/1.1","title":"J","items":[{"id":"1","title":"Grüße"}]}"#
        let data = try Self.encode("\u{FEFF}" + json, as: "UTF-16LE")
        #expect(try FeedParser().parse(data, url: nil).items.first?.title == "Grüße")
    }

    /// JSON may be UTF-16 or UTF-32 without a mark (RFC 7159 §8.1); the zero bytes around its
    /// first `{` tell which. Before, big-endian ones were "neither XML nor JSON" and little-endian
    /// ones lost every non-ASCII character.
    @Test(arguments: ["UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"])
    func jsonFeedInUnmarkedWideUnicode(_ encoding: String) throws {
        let json =
            #"{"version":"https://jsonfeed.org/version/1.1","title":"Köln","items":[{"id":"1","title":"Grüße ✓"}]}"#
        let feed = try FeedParser().parse(try Self.encode(json, as: encoding), url: nil)
        #expect(feed.title == "Köln")
        #expect(feed.items.map(\.title) == ["Grüße ✓"])
        #expect(feed.warnings == [])
    }
}
