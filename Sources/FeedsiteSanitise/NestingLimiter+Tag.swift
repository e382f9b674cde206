extension NestingLimiter {
    /// A tag as gumbo 0.10 identifies it: one of the names it knows (case-insensitively), or
    /// `unknown`, which gumbo treats as one tag for every unknown name (`</foo>` closes a `<bar>`).
    struct Tag: Hashable, Sendable {
        let rawValue: UInt8

        /// The names gumbo 0.10.1 knows, in the order of its `GumboTag` enumeration (`tag_strings.h`).
        static let names: [String] = [
            "html", "head", "title", "base", "link", "meta", "style", "script", "noscript", "template", "body",
            "article", "section", "nav", "aside", "h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "header", "footer",
            "address", "p", "hr", "pre", "blockquote", "ol", "ul", "li", "dl", "dt", "dd", "figure", "figcaption",
            "main", "div", "a", "em", "strong", "small", "s", "cite", "q", "dfn", "abbr", "data", "time", "code",
            "var", "samp", "kbd", "sub", "sup", "i", "b", "u", "mark", "ruby", "rt", "rp", "bdi", "bdo", "span", "br",
            "wbr", "ins", "del", "image", "img", "iframe", "embed", "object", "param", "video", "audio", "source",
            "track", "canvas", "map", "area", "math", "mi", "mo", "mn", "ms", "mtext", "mglyph", "malignmark",
            "annotation-xml", "svg", "foreignobject", "desc", "table", "caption", "colgroup", "col", "tbody",
            "thead", "tfoot", "tr", "td", "th", "form", "fieldset", "legend", "label", "input", "button", "select",
            "datalist", "optgroup", "option", "textarea", "keygen", "output", "progress", "meter", "details",
            "summary", "menu", "menuitem", "applet", "acronym", "bgsound", "dir", "frame", "frameset", "noframes",
            "isindex", "listing", "xmp", "nextid", "noembed", "plaintext", "rb", "strike", "basefont", "big",
            "blink", "center", "font", "marquee", "multicol", "nobr", "spacer", "tt", "rtc",
        ]

        static let unknown = Tag(rawValue: UInt8(names.count))

        private static let nameBytes: [[UInt8]] = names.map { Array($0.utf8) }
        private static let byHash: [UInt64: UInt8] = {
            var table: [UInt64: UInt8] = [:]
            for (index, name) in names.enumerated() {
                table[NestingLimiter.hash(lowercasing: name)] = UInt8(index)
            }
            return table
        }()

        init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// The tag for a name as written (ASCII case ignored).
        init(name: some Collection<UInt8>) {
            guard name.count <= 14, let index = Self.byHash[NestingLimiter.hash(lowercasing: name)],
                Self.nameBytes[Int(index)].count == name.count,
                zip(Self.nameBytes[Int(index)], name).allSatisfy({ expected, byte in
                    expected == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
                })
            else {
                self = .unknown
                return
            }
            self.rawValue = index
        }

        private static func named(_ name: String) -> Tag {
            Tag(name: Array(name.utf8))
        }

        var name: String { rawValue < Self.names.count ? Self.names[Int(rawValue)] : "" }

        static let html = named("html"), head = named("head"), title = named("title"), style = named("style")
        static let script = named("script"), template = named("template"), body = named("body")
        static let p = named("p"), li = named("li"), dd = named("dd"), dt = named("dt"), a = named("a")
        static let div = named("div"), address = named("address"), button = named("button"), form = named("form")
        static let nobr = named("nobr"), font = named("font"), ruby = named("ruby"), rt = named("rt")
        static let rp = named("rp"), rb = named("rb"), rtc = named("rtc"), select = named("select")
        static let option = named("option"), optgroup = named("optgroup"), table = named("table")
        static let caption = named("caption"), colgroup = named("colgroup"), col = named("col")
        static let tbody = named("tbody"), thead = named("thead"), tfoot = named("tfoot"), tr = named("tr")
        static let td = named("td"), th = named("th"), svg = named("svg"), math = named("math")
        static let mi = named("mi"), mo = named("mo"), mn = named("mn"), ms = named("ms"), mtext = named("mtext")
        static let mglyph = named("mglyph"), malignmark = named("malignmark")
        static let annotationXML = named("annotation-xml"), foreignObject = named("foreignobject")
        static let desc = named("desc"), input = named("input"), keygen = named("keygen")
        static let textarea = named("textarea"), plaintext = named("plaintext"), isindex = named("isindex")
        static let frameset = named("frameset"), applet = named("applet"), marquee = named("marquee")
        static let object = named("object"), br = named("br"), image = named("image"), hr = named("hr")
        static let xmp = named("xmp"), iframe = named("iframe"), noembed = named("noembed")
        static let noframes = named("noframes"), pre = named("pre"), listing = named("listing")
        static let param = named("param"), source = named("source"), track = named("track")
        static let ol = named("ol"), ul = named("ul")

        static let headings = TagSet(["h1", "h2", "h3", "h4", "h5", "h6"])

        /// Formatting elements other than `a` and `nobr` (the "in body" start tag rule that adds them).
        static let formatting = TagSet([
            "b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u",
        ])

        /// Elements whose end tag runs the adoption agency algorithm.
        static let adoptionAgencySubjects = formatting.union(TagSet(["a", "nobr"]))

        var isFormatting: Bool { Self.adoptionAgencySubjects.contains(self) }

        /// Start tags "in body" that close an open `p` and are inserted (`div`, `ul`, `p`…).
        static let pClosingBlocks = TagSet([
            "address", "article", "aside", "blockquote", "center", "details", "dir", "div", "dl", "fieldset",
            "figcaption", "figure", "footer", "header", "hgroup", "menu", "main", "nav", "ol", "p", "section",
            "summary", "ul",
        ])

        /// End tags "in body" that close everything up to their element when it is in scope.
        static let scopedBlockEnds = TagSet([
            "address", "article", "aside", "blockquote", "button", "center", "details", "dir", "div", "dl",
            "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "listing", "main", "menu", "nav",
            "ol", "pre", "section", "summary", "ul",
        ])

        /// Elements gumbo inserts and pops at once "in body" or "in head".
        static let voids = TagSet([
            "area", "br", "embed", "img", "image", "keygen", "wbr", "input", "param", "source", "track", "hr",
            "base", "basefont", "bgsound", "link", "meta", "menuitem", "isindex",
        ])

        var isVoid: Bool { Self.voids.contains(self) }

        /// Start tags "in body" that are processed as "in head".
        static let headStarts = TagSet([
            "base", "basefont", "bgsound", "menuitem", "link", "meta", "noframes", "script", "style", "template",
            "title",
        ])

        /// Start tags "in body" that gumbo ignores as misplaced.
        static let ignoredInBody = TagSet([
            "caption", "col", "colgroup", "frame", "head", "tbody", "td", "tfoot", "th", "thead", "tr",
        ])

        /// Popped by "generate implied end tags".
        static let impliedEnds = TagSet(["dd", "dt", "li", "option", "optgroup", "p", "rp", "rb", "rt", "rtc"])

        /// Popped by "generate all implied end tags thoroughly".
        static let thoroughlyImpliedEnds = impliedEnds.union(
            TagSet(["caption", "colgroup", "tbody", "td", "tfoot", "th", "head", "tr"]))

        static let tableSections = TagSet(["tbody", "thead", "tfoot"])
        static let cells = TagSet(["td", "th"])
        /// Start tags that end a cell, a caption or a row group.
        static let tableStructure = TagSet([
            "caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr",
        ])

        /// The "special" category, HTML namespace (gumbo 0.10's list).
        static let specialHTML = TagSet([
            "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body",
            "br", "button", "caption", "center", "col", "colgroup", "menuitem", "dd", "details", "dir", "div", "dl",
            "dt", "embed", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2",
            "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "isindex",
            "li", "link", "listing", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript", "object",
            "ol", "p", "param", "plaintext", "pre", "script", "section", "select", "style", "summary", "table",
            "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr", "ul", "wbr", "xmp",
        ])
        static let specialMathML = TagSet(["mi", "mo", "mn", "ms", "mtext", "annotation-xml"])
        static let specialSVG = TagSet(["foreignobject", "desc"])

        /// Boundaries of "has an element in scope", by namespace.
        static let scopeHTML = TagSet([
            "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template",
        ])
        static let scopeMathML = TagSet(["mi", "mo", "mn", "ms", "mtext", "annotation-xml"])
        static let scopeSVG = TagSet(["foreignobject", "desc", "title"])
    }

    /// A set of tags as a bitmap.
    struct TagSet: Sendable {
        private var bits: (UInt64, UInt64, UInt64) = (0, 0, 0)

        init() {}

        init(_ names: [String]) {
            for name in names { insert(Tag(name: Array(name.utf8))) }
        }

        mutating func insert(_ tag: Tag) {
            let bit = UInt64(1) << UInt64(tag.rawValue & 63)
            switch tag.rawValue >> 6 {
            case 0: bits.0 |= bit
            case 1: bits.1 |= bit
            default: bits.2 |= bit
            }
        }

        func contains(_ tag: Tag) -> Bool {
            let bit = UInt64(1) << UInt64(tag.rawValue & 63)
            switch tag.rawValue >> 6 {
            case 0: return bits.0 & bit != 0
            case 1: return bits.1 & bit != 0
            default: return bits.2 & bit != 0
            }
        }

        func union(_ other: TagSet) -> TagSet {
            var result = self
            result.bits = (bits.0 | other.bits.0, bits.1 | other.bits.1, bits.2 | other.bits.2)
            return result
        }
    }
}
