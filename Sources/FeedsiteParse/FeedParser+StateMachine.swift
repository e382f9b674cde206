import FeedsiteShared
import Foundation

extension FeedParser {
    /// Builds a `Feed` from a stream of XML events (start element, end element, text, CDATA, error).
    ///
    /// This is the whole of the XML feed logic; `XMLEventReader` only forwards events here.
    /// Being a value type fed plain values, it is unit-tested without any XML (see
    /// `FeedParserStateMachineTests`), and a parse is one `var machine` with no shared state.
    ///
    /// It keeps a stack of open elements, each with a *role* decided from its parent's role and its
    /// (namespace, name): structural elements (`channel`, `item`, `entry`, Atom `author`,
    /// `media:group`) open a context, known leaf elements are *fields* whose text is read when they
    /// close, and everything else is ignored together with its subtree (so `<source><title>` in an
    /// Atom entry or `<textInput><title>` in RSS never overwrite the real titles). Child elements
    /// of a field (`<description><em>x</em></description>`, Atom `type="xhtml"`) are re-serialised
    /// into markup text, so naked markup, escaped markup and CDATA all produce the same HTML string.
    struct StateMachine {
        /// What the caller should do after an event.
        enum Action: Equatable {
            case proceed
            /// The document is not a feed (or is broken); stop parsing and call `finish()`.
            case stop
        }

        /// Where an event happened, for diagnostics.
        struct Position: Sendable, Hashable {
            var line: Int
            var column: Int
        }

        /// What an open element means.
        enum Role: Equatable {
            /// `<rss>` or `<rdf:RDF>`: holds the channel (and, for RDF, items and image).
            case root
            /// RSS `channel`, or the Atom `feed` itself.
            case channel
            case item
            /// RSS `channel/image` (or RDF's root-level `image`).
            case channelImage
            /// Atom `author`/`contributor`; `isContributor` ones are not authors.
            case person(inItem: Bool, isContributor: Bool)
            /// `media:group` / `media:content`: media children apply to the enclosing item.
            case media
            /// A leaf whose text (or re-serialised children) is read when it closes.
            case field
            /// An element of the feed's own vocabulary (RSS's or Atom's) in the channel or the root
            /// that feedsite does not read: skipped with its subtree, but counted, for a warning, when
            /// it looks like a post (a `title` and a `link`, `guid` or `id` in it).
            case unread
            /// Unknown element: it and its subtree are skipped.
            case ignored
        }

        /// The fields that make an unread element look like a post, as bits of `Frame.postFields`.
        enum PostFields {
            static let title: UInt8 = 1
            static let link: UInt8 = 2
        }

        /// One open element.
        struct Frame {
            var name: String
            var namespace: Namespace
            var role: Role
            var attributes: [String: String]
            /// The `xml:base` in scope, already resolved; starts as the document URL.
            var base: URL?
            /// Whether any ancestor-or-self declared `xml:base` (`contentBase` is only set then).
            var isBaseDeclared: Bool
            /// An Atom `<entry>` written into an RSS channel, or an element inside one: its children
            /// in no namespace are Atom's (`title`, `link href`, `id`, `updated`, `author`/`name`…).
            var readsNoNamespaceAsAtom = false
            /// For an `unread` element: which of a post's fields it holds (`PostFields`), and its line.
            var postFields: UInt8 = 0
            var line: Int?
            /// Character data, decoded once by the XML parser (CDATA included verbatim).
            var text = ""
            /// The content re-serialised as markup; only built once a child element appears.
            var markup = ""
            var childElementCount = 0
            /// UTF-8 offsets, inside `markup`, of a single wrapping xhtml `div`'s content.
            var wrapperStart: Int?
            var wrapperEnd: Int?
            var hasTextOutsideWrapper = false

            /// A CDF attribute (`HREF`, `LASTMOD`), whatever its case.
            func cdfAttribute(_ lowercaseName: String) -> String? {
                attributes.first { $0.key.lowercased() == lowercaseName }?.value
            }

            func attribute(_ localName: String) -> String? {
                attributes[localName]
                    ?? attributes.first { key, _ in
                        key.hasSuffix(":" + localName) && !key.hasPrefix("xml:")
                    }?.value
            }

            /// An Atom text construct or content of XHTML (`type="xhtml"`, Atom 0.3's MIME type).
            var isXHTMLConstruct: Bool {
                guard namespace.isAtom, let type = attribute("type") else { return false }
                let given = type.trimmingSpacesAndTabs.lowercased()
                return given == "xhtml" || given == "application/xhtml+xml"
            }

            /// The field's value: re-serialised markup when it had child elements, else its text.
            var value: String {
                childElementCount > 0 ? markup : text
            }

            /// Markup with one wrapping xhtml `div` removed (Atom `type="xhtml"`, RFC 4287 §3.1.1.3).
            var unwrappedMarkup: String {
                guard childElementCount == 1, !hasTextOutsideWrapper, let start = wrapperStart, let end = wrapperEnd,
                    start <= end
                else { return markup }
                let utf8 = markup.utf8
                return String(
                    decoding: utf8[
                        utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)],
                    as: UTF8.self)
            }
        }

        private let documentURL: URL?
        private var stack: [Frame] = []
        /// Depth of elements open *inside* the top frame while it is a field being serialised.
        private var captureDepth = 0
        /// The `xml:base` declared inside the serialised markup, by the depth of its element.
        private var capturedBases: [(depth: Int, base: URL?)] = []
        private var format: Feed.Format?
        private var version = ""
        /// `<rss xmlns="…">`: that namespace then means "no namespace" (some UserLand feeds).
        private var rssDefaultNamespace: String?
        /// The `<rss>` root's prefix (`r` of `<r:rss>`), nil when it has none.
        private var rssPrefix: Substring?
        /// What an element in no namespace is: RSS's, except inside a `<feed>` that declared none
        /// (an Atom feed written without its namespace), where it is Atom's.
        private var noNamespace: Namespace = .none
        private var namespaceCache: [String: Namespace] = [:]
        private var channel = ChannelBuilder()
        private var item: ItemBuilder?
        /// The items an open item is inside (`<item>…<item>…</item>…</item>`), innermost last.
        private var enclosingItems: [ItemBuilder] = []
        /// Items read inside another, by their place in the document: added after the outermost.
        private var nestedItems: [(index: Int, item: FeedItem)] = []
        /// The line where each open item inside another began, innermost last.
        private var nestedItemLines: [Int?] = []
        private var person = Person()
        private var items: [FeedItem] = []
        private var itemCount = 0
        /// Items past `FeedParser.maxItems`: skipped unread, counted for a warning.
        private var skippedItemCount = 0
        private var warnings: [String] = []
        private var failure: FeedParseError?
        private var sawRoot = false
        /// The document is CDF: links and dates are attributes of `CHANNEL` and `ITEM`.
        private var isCDF = false
        /// An RSS <item> in an Atom feed was met (and said so once).
        private var hasWarnedOfRSSItems = false
        /// An Atom <entry> in an RSS channel was met (and said so once).
        private var hasWarnedOfAtomEntries = false
        /// Items wrapped in an unread element (`<items><item>`) were met (and said so once).
        private var hasWarnedOfWrappedItems = false
        /// Posts read inside another item: how many, the first's name and line (for one warning).
        private var nestedPosts: (count: Int, name: String, line: Int?) = (0, "", nil)
        /// Unread elements that look like posts, by name in the order first met: how many, and the
        /// line of the first.
        private var unreadPosts: [(name: String, count: Int, line: Int?)] = []
        /// Positions in `unreadPosts`, by name.
        private var unreadPostIndex: [String: Int] = [:]
        /// Post-like elements of names past the first `maxUnreadNames`: counted together.
        private var otherUnreadPosts = 0
        /// How many names of unread post-like elements get a warning of their own.
        private static let maxUnreadNames = 5
        /// Set at the repair pass's truncation marker: everything after it was closed by the repair.
        private var isTruncated = false
        /// Whether parsing ended on an XML well-formedness error (so a repair pass may help).
        private(set) var sawMalformedXML = false

        /// `documentURL` is the feed's final URL, the last base for relative references.
        init(documentURL: URL?) {
            self.documentURL = documentURL
        }

        // MARK: - Events

        /// An element opened. `attributes` are keyed by qualified name (`xml:base`, `href`).
        mutating func startElement(
            _ name: String, namespaceURI: String?, qualifiedName: String? = nil, attributes: [String: String] = [:],
            at position: Position? = nil
        ) -> Action {
            guard failure == nil else { return .stop }
            var namespace = classify(namespaceURI, qualifiedName: qualifiedName)

            // Only the parent's role, base and flag are read: copying the whole frame would retain all its strings.
            let parent = stack.indices.last
            let parentRole = parent.map { stack[$0].role }
            if parentRole == .field {
                serialiseStart(name, namespace: namespace, attributes: attributes)
                return .proceed
            }
            // An RSS <item> written into an Atom feed (in Atom's namespace, as everything
            // unprefixed there): its children are RSS's `title`, `link`, `description`, `pubDate`…
            // in that namespace too, and are read as RSS's.
            if let parent, parentRole == .item, namespace.isAtom, stack[parent].namespace.isAtom,
                stack[parent].name == "item"
            {
                namespace = .none
            }
            // The mirror case: an Atom <entry> written into an RSS channel without Atom's namespace.
            // It and everything in no namespace inside it are read as Atom's.
            var readsNoNamespaceAsAtom = false
            if let parent, namespace == .none {
                if stack[parent].readsNoNamespaceAsAtom {
                    readsNoNamespaceAsAtom = true
                } else if parentRole == .channel, name == "entry", stack[parent].namespace.isRSS {
                    readsNoNamespaceAsAtom = true
                    if !hasWarnedOfAtomEntries {
                        hasWarnedOfAtomEntries = true
                        warn(
                            (position.map { "line \($0.line): " } ?? "")
                                + "an Atom <entry> in an RSS feed (RSS's are <item>); read as an Atom entry, as are any others"
                        )
                    }
                }
                if readsNoNamespaceAsAtom { namespace = .atom }
            }

            // RSS 0.90 and 1.0 documents whose channel is in a namespace not known here (Netscape's
            // other addresses, `http://channel.netscape.com/rdf/simple/0.9/`): under <rdf:RDF> that
            // namespace stands for RSS 1.0's, as a <feed> root's unknown one stands for Atom's.
            if parentRole == .root, namespace == .other, let namespaceURI, stack.count == 1,
                stack[0].namespace == .rdf, ["channel", "item", "image", "textinput"].contains(name)
            {
                namespaceCache[namespaceURI] = .rss10
                namespace = .rss10
                warn(
                    (position.map { "line \($0.line): " } ?? "")
                        + "the RDF feed's <\(name)> is in the namespace \(namespaceURI)"
                        + ", not RSS 1.0's (http://purl.org/rss/1.0/); read as RSS 1.0")
            }

            if let parent, parentRole == .unread {
                switch name {
                case "title": stack[parent].postFields |= PostFields.title
                case "link", "guid", "id": stack[parent].postFields |= PostFields.link
                default: break
                }
            }

            let parentBase = parent.flatMap { stack[$0].base } ?? documentURL
            var base = parentBase
            var isBaseDeclared = parent.map { stack[$0].isBaseDeclared } ?? false
            if let declared = attributes["xml:base"] {
                base = FeedText.resolve(declared, against: parentBase).flatMap { URL(string: $0) } ?? parentBase
                isBaseDeclared = true
            }

            var role: Role
            if let parentRole {
                role = childRole(name, namespace, parent: parentRole)
            } else {
                guard
                    let rootRole = rootRole(
                        name, namespace, namespaceURI: namespaceURI, qualifiedName: qualifiedName,
                        attributes: attributes,
                        at: position)
                else { return .stop }
                role = rootRole
            }
            if role == .item, itemCount >= FeedParser.maxItems {
                skippedItemCount += 1
                role = .ignored
            }
            if role == .item, parentRole == .unread, !hasWarnedOfWrappedItems, let parent {
                hasWarnedOfWrappedItems = true
                warn(
                    (position.map { "line \($0.line): " } ?? "") + "<\(name)> elements inside <\(stack[parent].name)>, "
                        + "not directly in the \(format == .atom ? "feed" : "channel"); read as its posts")
            }
            if role == .item, parentRole == .item { nestedItemLines.append(position?.line) }
            if role == .item, namespace.isAtom, name == "item", !hasWarnedOfRSSItems {
                hasWarnedOfRSSItems = true
                warn(
                    (position.map { "line \($0.line): " } ?? "")
                        + "an RSS <item> in an Atom feed (Atom's are <entry>); read as an RSS item, as are any others")
            }
            var frame = Frame(
                name: name, namespace: namespace, role: role, attributes: attributes, base: base,
                isBaseDeclared: isBaseDeclared)
            frame.readsNoNamespaceAsAtom = readsNoNamespaceAsAtom
            if role == .field { frame.text.reserveCapacity(64) }
            if role == .unread { frame.line = position?.line }
            open(&frame)
            stack.append(frame)
            return .proceed
        }

        /// The element opened last closed.
        mutating func endElement(_ name: String, namespaceURI: String?, qualifiedName: String? = nil) {
            guard failure == nil else { return }
            if captureDepth > 0 {
                serialiseEnd(name, namespace: classify(namespaceURI, qualifiedName: qualifiedName))
                return
            }
            guard let frame = stack.popLast() else { return }
            close(frame)
        }

        /// Whether the next element to open is the root or a child of the root, the channel, an item
        /// or an unread element there: only there does `startElement` use a position (to diagnose the
        /// root, and an item, entry or unknown post-like element where it may not belong).
        var wantsPosition: Bool {
            guard let top = stack.last else { return true }
            return top.role == .root || top.role == .channel || top.role == .unread || top.role == .item
        }

        /// Whether `characters` and `cdata` would keep text now (the open element is a field), so a
        /// reader can skip building strings for the whitespace between structural elements.
        var isReadingText: Bool {
            failure == nil && !stack.isEmpty && stack[stack.count - 1].role == .field
        }

        /// Character data (already decoded: `&amp;` arrives as `&`).
        mutating func characters(_ string: String) {
            guard failure == nil, let top = stack.indices.last, stack[top].role == .field else { return }
            stack[top].text += string
            if stack[top].childElementCount > 0 {
                stack[top].markup += FeedText.escapeText(string)
                if captureDepth == 0, string.contains(where: { !$0.isWhitespace }) {
                    stack[top].hasTextOutsideWrapper = true
                }
            }
        }

        /// A CDATA section: its text is taken verbatim, as the markup it almost always is, except in
        /// Atom XHTML (`type="xhtml"`), which is XML: there a CDATA section is text, as XML defines
        /// it (`<pre><![CDATA[x = "<b>";]]></pre>` shows `<b>`).
        mutating func cdata(_ string: String) {
            guard failure == nil, let top = stack.indices.last, stack[top].role == .field else { return }
            stack[top].text += string
            if stack[top].childElementCount > 0 {
                stack[top].markup += stack[top].isXHTMLConstruct ? FeedText.escapeText(string) : string
                if captureDepth == 0, string.contains(where: { !$0.isWhitespace }) {
                    stack[top].hasTextOutsideWrapper = true
                }
            }
        }

        /// A processing instruction. Only the repair pass's truncation marker means anything: the
        /// document was cut off here, so the item still open is incomplete and will be dropped.
        mutating func processingInstruction(target: String, data: String?) {
            guard failure == nil, target == FeedParser.truncationMarker else { return }
            isTruncated = true
        }

        /// The XML parser found the document malformed (`message` says how); parsing ends.
        mutating func error(_ message: String, at position: Position?) {
            guard failure == nil else { return }
            failure = FeedParseError(
                line: position?.line, column: position?.column, message: "malformed XML: " + message)
            sawMalformedXML = true
        }

        /// A warning from outside the machine (the reader's recovery notes), kept in the feed's warnings.
        mutating func warn(_ message: String) {
            warnings.append(message)
        }

        /// The feed built so far, or why there is none.
        func finish() throws(FeedParseError) -> Feed {
            if let failure { throw failure }
            guard sawRoot, let format else {
                throw FeedParseError(message: "the document has no root element; it is not a feed")
            }
            var feed = channel.build(format: format, version: version)
            feed.items = items
            if format == .atom, !feed.authors.isEmpty {
                // RFC 4287 §4.2.1: an entry without authors inherits the feed's.
                for index in feed.items.indices where feed.items[index].authors.isEmpty {
                    feed.items[index].authors = feed.authors
                }
            }
            feed.warnings = warnings
            if skippedItemCount > 0 {
                feed.warnings.append(FeedParser.tooManyItemsWarning(total: itemCount + skippedItemCount))
            }
            if nestedPosts.count > 0 {
                let name = nestedPosts.name
                feed.warnings.append(
                    (nestedPosts.line.map { "line \($0): " } ?? "")
                        + (nestedPosts.count == 1
                            ? "an <\(name)> inside another (a whole post within a post); read as a post of its own"
                            : "\(nestedPosts.count) <\(name)>s inside others (whole posts within posts); each read as a"
                                + " post of its own"))
            }
            for unread in unreadPosts {
                let what =
                    unread.count == 1 ? "one <\(unread.name)> element" : "\(unread.count) <\(unread.name)> elements"
                feed.warnings.append(
                    (unread.line.map { "line \($0): " } ?? "") + what + " in the "
                        + (format == .atom ? "feed" : "channel")
                        + (unread.count == 1
                            ? " looks like a post (a title and a link)" : " look like posts (a title and a link each)")
                        + " but feedsite reads only RSS <item>s and Atom <entry>s as posts: "
                        + (unread.count == 1 ? "it was" : "they were") + " not read")
            }
            if otherUnreadPosts > 0 {
                feed.warnings.append(
                    "\(otherUnreadPosts) more element\(otherUnreadPosts == 1 ? "" : "s") of other names in the "
                        + (format == .atom ? "feed" : "channel") + " look like posts and were not read")
            }
            return feed
        }

        // MARK: - Roles

        private mutating func classify(_ uri: String?, qualifiedName: String?) -> Namespace {
            guard let uri, !uri.isEmpty else {
                // An undeclared prefix (`<dc:creator>` without `xmlns:dc`, a common slip in hand-made
                // feeds): the vocabularies whose prefix everyone uses are recognised by it; any other
                // prefixed element is not ours.
                // Looked for as a byte: this runs for every element in no namespace (all of RSS).
                if let qualifiedName, let colon = qualifiedName.utf8.firstIndex(of: UInt8(ascii: ":")) {
                    return Self.wellKnownPrefixes[String(qualifiedName[..<colon]).lowercased()] ?? .other
                }
                return noNamespace
            }
            // Only elements with the root's own prefix (usually none): `<rss xmlns="http://www.w3.org/2005/Atom">`
            // makes RSS's own elements Atom's by mistake, while its `atom:link` in that namespace is Atom's,
            // and so are the elements only Atom has (`<id>`, `<updated>`), which RSS would not read.
            if uri == rssDefaultNamespace, Self.prefix(of: qualifiedName) == rssPrefix {
                guard let qualifiedName,
                    FeedParser.atomOnlyNames.contains(qualifiedName.split(separator: ":").last ?? ""),
                    Namespace(uri: uri) == .atom
                else { return .none }
                return .atom
            }
            if let cached = namespaceCache[uri] { return cached }
            let namespace = Namespace(uri: uri)
            namespaceCache[uri] = namespace
            return namespace
        }

        /// `r` of `r:channel`; nil for a name without a prefix.
        private static func prefix(of qualifiedName: String?) -> Substring? {
            guard let qualifiedName, let colon = qualifiedName.firstIndex(of: ":") else { return nil }
            return qualifiedName[..<colon]
        }

        private mutating func rootRole(
            _ name: String, _ namespace: Namespace, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String], at position: Position?
        ) -> Role? {
            sawRoot = true
            switch (namespace, name) {
            case (_, "rss"):
                format = .rss
                version = attributes["version"].map { $0.trimmingCharacters(in: .whitespaces) } ?? "2.0"
                if let namespaceURI, !namespaceURI.isEmpty {
                    rssDefaultNamespace = namespaceURI
                    rssPrefix = Self.prefix(of: qualifiedName)
                }
                return .root
            case (.rdf, "RDF"):
                format = .rss
                version = "1.0"
                return .root
            case (.atom, "feed"), (.none, "feed"):
                format = .atom
                version = attributes["version"] ?? "1.0"
                if namespace == .none { noNamespace = .atom }
                return .channel
            case (.atom03, "feed"):
                format = .atom
                version = attributes["version"] ?? "0.3"
                return .channel
            case (.other, "feed"):
                // Atom's drafts named their namespace several ways (`http://purl.org/echo/`,
                // `http://purl.org/pie/`, …): a <feed> root in a namespace not known here is read
                // as Atom 0.3, its namespace standing for Atom's.
                format = .atom
                version = attributes["version"] ?? "0.3"
                if let namespaceURI { namespaceCache[namespaceURI] = .atom03 }
                warn(
                    (position.map { "line \($0.line): " } ?? "")
                        + "the root <feed> is in the namespace \(namespaceURI ?? "")"
                        + ", not Atom's (http://www.w3.org/2005/Atom); read as Atom")
                return .channel
            case (.none, "channel"):
                // Microsoft's Channel Definition Format (1997), RSS's predecessor: `<CHANNEL HREF=…>`
                // with `<ITEM HREF=… LASTMOD=…>`, `<TITLE>` and `<ABSTRACT>`.
                format = .rss
                version = "cdf"
                isCDF = true
                return .channel
            case (.atom, "entry"), (.atom03, "entry"):
                // One post published on its own (RFC 4287 §2): read as a feed of that post, as other
                // readers do, so the post is not lost; the feed it belongs to would keep it current.
                format = .atom
                version = attributes["version"] ?? (namespace == .atom ? "1.0" : "0.3")
                warn(
                    (position.map { "line \($0.line): " } ?? "")
                        + "the document is an Atom entry document (one post, RFC 4287 §2), not a feed; read as a"
                        + " feed of that one post: use the address of the feed it belongs to")
                return .item
            default:
                if FeedParser.htmlElementNames.contains(name.lowercased()) {
                    failure = .htmlPage(line: position?.line, column: position?.column)
                } else if name.lowercased() == "opml" {
                    failure = FeedParseError(
                        line: position?.line, column: position?.column,
                        message: "the document is an OPML subscription list, not a feed; add its feeds to"
                            + " feeds.yml with 'feedsite import opml FILE'")
                } else {
                    failure = FeedParseError(
                        line: position?.line, column: position?.column,
                        message: "the document is XML but not a feed: its root element is <\(qualifiedName ?? name)>"
                            + " (expected <rss>, <feed> or <rdf:RDF>)")
                }
                return nil
            }
        }

        private func childRole(_ name: String, _ ns: Namespace, parent: Role) -> Role {
            switch parent {
            case .root:
                if ns.isRSS || ns == .rdf {
                    switch name {
                    case "channel": return .channel
                    case "item": return .item  // RSS 1.0: items are siblings of the channel
                    case "image": return .channelImage
                    default: return .unread
                    }
                }
                return .ignored
            case .channel:
                if ns.isRSS {
                    switch name {
                    case "item": return .item
                    case "image": return .channelImage
                    case "title", "link", "description", "language", "copyright", "managingEditor", "webMaster",
                        "pubDate", "lastBuildDate", "category", "generator", "abstract":
                        return .field
                    default: return .unread
                    }
                }
                if ns.isAtom {
                    switch name {
                    case "entry", "item": return .item  // `item`: RSS's, in an Atom feed (startElement)
                    case "author": return .person(inItem: false, isContributor: false)
                    case "contributor": return .person(inItem: false, isContributor: true)
                    case "title", "subtitle", "tagline", "link", "updated", "modified", "rights", "copyright",
                        "generator", "icon", "logo", "category", "info":
                        return .field
                    default: return .unread
                    }
                }
                return isField(name, ns, in: Self.channelExtensionFields) ? .field : .ignored
            case .item:
                // A whole item inside an item (a template that wrote one post within another): a
                // post of its own, never a field of the one around it.
                if (ns.isRSS && name == "item") || (ns.isAtom && name == "entry") { return .item }
                if ns.isRSS {
                    switch name {
                    case "title", "link", "description", "author", "category", "enclosure", "guid", "pubDate",
                        "abstract", "published", "updated":
                        // `published`/`updated` without a namespace: Atom's names, written into RSS
                        // items by generators that forgot the prefix.
                        return .field
                    default: return .ignored
                    }
                }
                if ns.isAtom {
                    switch name {
                    case "author": return .person(inItem: true, isContributor: false)
                    case "contributor": return .person(inItem: true, isContributor: true)
                    case "title", "link", "id", "published", "updated", "issued", "modified", "created", "summary",
                        "content", "category":
                        return .field
                    default: return .ignored
                    }
                }
                if ns == .media, name == "group" || name == "content" { return .media }
                return isField(name, ns, in: Self.itemExtensionFields) ? .field : .ignored
            case .media:
                if ns == .media, name == "content" || name == "group" { return .media }
                return ns == .media && (name == "thumbnail" || name == "description" || name == "title")
                    ? .field : .ignored
            case .channelImage:
                return ns.isRSS && (name == "url" || name == "title" || name == "link") ? .field : .ignored
            case .person:
                return ns.isAtom && ["name", "email", "uri", "url"].contains(name) ? .field : .ignored
            case .unread:
                // Items wrapped in elements of their own (`<items><item>…`, `<posts><list><item>…`), at
                // any depth the reader allows: read as the channel's. Wrappers in the feed's own
                // vocabulary are unread too, so a post-like element among them is counted.
                if (ns.isRSS && name == "item") || (ns.isAtom && name == "entry") { return .item }
                return ns.isRSS || ns.isAtom ? .unread : .ignored
            case .field, .ignored:
                return .ignored
            }
        }

        private func isField(_ name: String, _ ns: Namespace, in table: [Namespace: Set<String>]) -> Bool {
            table[ns]?.contains(name) ?? false
        }

        /// The prefixes a vocabulary is known by, for elements whose prefix was never declared.
        private static let wellKnownPrefixes: [String: Namespace] = [
            "dc": .dc, "dcterms": .dcterms, "content": .content, "media": .media, "itunes": .itunes, "atom": .atom,
            "rdf": .rdf,
        ]

        /// Fields of the channel from extension vocabularies (built once, not per element).
        private static let channelExtensionFields: [Namespace: Set<String>] = [
            .dc: ["title", "creator", "date", "language", "rights", "subject", "description", "publisher"],
            .dcterms: ["modified"],
            .itunes: ["author", "image", "summary", "category"],
        ]

        /// Fields of an item from extension vocabularies.
        private static let itemExtensionFields: [Namespace: Set<String>] = [
            .content: ["encoded"],
            // `dc:author` is no Dublin Core term, but feeds write it for `dc:creator`.
            .dc: ["title", "creator", "author", "date", "description", "subject"],
            .dcterms: ["modified", "created", "issued"],
            .itunes: ["author", "summary", "image", "title"],
            .media: ["thumbnail", "description", "title"],
        ]

        // MARK: - Opening and closing contexts

        private mutating func open(_ frame: inout Frame) {
            switch frame.role {
            case .item:
                itemCount += 1
                if let enclosing = item { enclosingItems.append(enclosing) }
                item = ItemBuilder(index: itemCount)
                if let about = frame.attribute("about") {
                    item?.rdfAbout = about
                }
                if isCDF {
                    let link = frame.cdfAttribute("href").flatMap { resolved($0, frame) }
                    let lastModified = frame.cdfAttribute("lastmod").flatMap { date($0, context: "item \(itemCount)") }
                    item?.rssLink = link
                    item?.updated = lastModified
                }
            case .person:
                person = Person()
            case .media:
                if frame.name == "content" { applyMediaContent(frame) }
            case .channel:
                if frame.namespace.isAtom, let lang = frame.attributes["xml:lang"], !lang.isEmpty {
                    channel.languages.append(lang)
                }
                // RSS 0.90 is RDF too, told apart from 1.0 by the namespace of its elements.
                if frame.namespace == .rss090 { version = "0.90" }
                if isCDF {
                    let link = frame.cdfAttribute("href").flatMap { resolved($0, frame) }
                    let lastModified = frame.cdfAttribute("lastmod").flatMap { date($0, context: "channel") }
                    channel.rssLink = link
                    channel.lastBuildDate = lastModified
                }
            default:
                break
            }
        }

        private mutating func close(_ frame: Frame) {
            switch frame.role {
            case .item:
                var read: (index: Int, item: FeedItem)?
                if isTruncated {
                    warnings.append("item \(itemCount): dropped, the document ends in the middle of it")
                } else if let item {
                    read = (item.index, item.build(warnings: &warnings))
                }
                item = enclosingItems.popLast()
                if item != nil {
                    let line = nestedItemLines.popLast() ?? nil
                    guard let read else { break }
                    // An empty `<item />` in each item (a FeedBurner template's) is no post, and
                    // takes no number from the items after it.
                    guard read.item != FeedItem() else {
                        if read.index == itemCount { itemCount -= 1 }
                        break
                    }
                    // The first in the document began on the smallest line (the innermost closes first).
                    if nestedPosts.count == 0 || (line ?? .max) < (nestedPosts.line ?? .max) {
                        nestedPosts.name = frame.name
                        nestedPosts.line = line
                    }
                    nestedPosts.count += 1
                    nestedItems.append(read)
                } else {
                    if let read { items.append(read.item) }
                    // Those read inside it follow it, in the order they began.
                    items += nestedItems.sorted { $0.index < $1.index }.map(\.item)
                    nestedItems = []
                }
            case .person(let inItem, let isContributor):
                guard !isContributor, person.name != nil || person.email != nil || person.uri != nil else { break }
                if inItem { item?.authors.atom.append(person) } else { channel.authors.atom.append(person) }
            case .unread:
                // `textInput` (RSS's search box) has a title and a link and is no post.
                guard frame.postFields == PostFields.title | PostFields.link, frame.name.lowercased() != "textinput"
                else { break }
                if let index = unreadPostIndex[frame.name] {
                    unreadPosts[index].count += 1
                } else if unreadPosts.count < Self.maxUnreadNames {
                    unreadPostIndex[frame.name] = unreadPosts.count
                    unreadPosts.append((frame.name, 1, frame.line))
                } else {
                    otherUnreadPosts += 1
                }
            case .field:
                let parentRole = stack.last?.role ?? .ignored
                switch parentRole {
                case .channel: applyChannelField(frame)
                case .item, .media: applyItemField(frame)
                case .channelImage: applyImageField(frame)
                case .person: applyPersonField(frame)
                default: break
                }
            default:
                break
            }
        }

        // MARK: - Fields

        private mutating func applyChannelField(_ frame: Frame) {
            let value = frame.value.trimmingWhitespace
            let ns = frame.namespace
            switch (ns, frame.name) {
            case (let ns, "title") where ns.isRSS || ns == .dc:
                channel.title = channel.title ?? Self.plainTitle(value, isHTML: nil)
            case (let ns, "title") where ns.isAtom:
                channel.title = channel.title ?? atomTitle(frame)
            case (let ns, "link") where ns.isRSS:
                channel.rssLink = channel.rssLink ?? resolved(Self.rssLink(value, frame), frame)
            case (let ns, "link") where ns.isAtom:
                guard let link = atomLink(frame) else { break }
                if link.rel == "alternate" { channel.atomAlternate.offer(link.enclosure) }
                if link.rel == "self" { channel.feedLink = channel.feedLink ?? link.enclosure.url }
            case (.none, "description"), (.rss10, "description"), (.rss090, "description"), (.none, "abstract"):
                channel.descriptions[0] = channel.descriptions[0] ?? value.nilIfEmpty
            case (.dc, "description"):
                channel.descriptions[1] = channel.descriptions[1] ?? value.nilIfEmpty
            case (.itunes, "summary"):
                channel.descriptions[2] = channel.descriptions[2] ?? value.nilIfEmpty
            case (.atom, "subtitle"), (.atom03, "subtitle"), (.atom03, "tagline"):
                channel.descriptions[3] = channel.descriptions[3] ?? textConstruct(frame)?.text
            case (let ns, "language") where ns.isRSS || ns == .dc:
                if let lang = value.nilIfEmpty { channel.languages.insert(lang, at: 0) }
            case (_, "copyright"), (_, "rights"):
                channel.copyright = channel.copyright ?? (ns.isAtom ? textConstruct(frame)?.text : value.nilIfEmpty)
            case (_, "managingEditor"):
                if let person = FeedText.person(fromRSSAuthor: value) { channel.authors.rss.append(person) }
            case (_, "webMaster"):
                channel.webMaster = channel.webMaster ?? FeedText.person(fromRSSAuthor: value)
            case (.dc, "publisher"):
                channel.dcPublisher = channel.dcPublisher ?? FeedText.person(fromRSSAuthor: value)
            case (.dc, "creator"):
                if let person = FeedText.person(fromRSSAuthor: value) { channel.authors.dcCreators.append(person) }
            case (.itunes, "author"):
                if let person = FeedText.person(fromRSSAuthor: value) { channel.authors.itunes.append(person) }
            case (_, "pubDate"):
                channel.pubDate = channel.pubDate ?? date(value, context: "channel")
            case (_, "lastBuildDate"), (.dcterms, "modified"):
                channel.lastBuildDate = channel.lastBuildDate ?? date(value, context: "channel")
            case (let ns, "updated") where ns.isAtom, (let ns, "modified") where ns.isAtom:
                // Either Atom's name in either Atom: feeds mix 0.3's `modified` and 1.0's `updated`.
                channel.atomUpdated = channel.atomUpdated ?? date(value, context: "channel")
            case (.dc, "date"):
                channel.dcDate = channel.dcDate ?? date(value, context: "channel")
            case (_, "generator"):
                channel.generator =
                    channel.generator ?? FeedText.collapseWhitespace(value).nilIfEmpty
                    ?? frame.attribute("uri")
            case (let ns, "category") where ns.isAtom:
                if let term = (frame.attribute("label") ?? frame.attribute("term"))?.nilIfEmpty {
                    channel.categories.append(FeedText.collapseWhitespace(term))
                }
            case (_, "category"), (.dc, "subject"):
                if ns == .itunes {
                    if let text = frame.attribute("text")?.nilIfEmpty { channel.categories.append(text) }
                } else if let text = value.nilIfEmpty {
                    channel.categories.append(FeedText.collapseWhitespace(text))
                }
            case (.itunes, "image"):
                if let href = frame.attribute("href").flatMap({ resolved($0, frame) }) ?? resolved(value, frame) {
                    channel.images[0] = channel.images[0] ?? FeedImage(url: href)
                }
            case (_, "logo"):
                if let url = resolved(value, frame) { channel.images[1] = channel.images[1] ?? FeedImage(url: url) }
            case (_, "icon"):
                if let url = resolved(value, frame) { channel.images[2] = channel.images[2] ?? FeedImage(url: url) }
            default:
                break
            }
        }

        private mutating func applyImageField(_ frame: Frame) {
            let value = frame.text.trimmingWhitespace
            switch frame.name {
            case "url": channel.imageURL = channel.imageURL ?? resolved(value, frame)
            case "title": channel.imageTitle = channel.imageTitle ?? Self.plainTitle(value, isHTML: nil)
            case "link": channel.imageLink = channel.imageLink ?? resolved(value, frame)
            default: break
            }
        }

        private mutating func applyPersonField(_ frame: Frame) {
            let value = FeedText.collapseWhitespace(frame.text)
            guard !value.isEmpty else { return }
            switch frame.name {
            case "name": person.name = value
            case "email": person.email = value
            case "uri", "url": person.uri = resolved(value, frame)
            default: break
            }
        }

        private mutating func applyItemField(_ frame: Frame) {
            // Work on a copy: `date(_:context:)` mutates `self` (warnings) while the item is written.
            // Moved out of `self` (not copied), so writing to its arrays does not copy them.
            guard var item = self.item.take() else { return }
            defer { self.item = item }
            let ns = frame.namespace
            let raw = frame.value
            let value = raw.trimmingWhitespace
            let index = itemCount
            switch (ns, frame.name) {
            case (let ns, "title") where ns.isRSS || ns == .dc:
                if item.title == nil { item.title = Self.plainTitle(value, isHTML: nil) }
            case (let ns, "title") where ns.isAtom:
                if item.title == nil { item.title = atomTitle(frame) }
            case (let ns, "link") where ns.isRSS:
                if item.rssLink == nil { item.rssLink = resolved(Self.rssLink(value, frame), frame) }
            case (let ns, "link") where ns.isAtom:
                guard let link = atomLink(frame) else { break }
                if link.rel == "alternate" { item.atomAlternate.offer(link.enclosure) }
                // An enclosure is a file: `href=""` (the feed itself) is none (lemon24/reader's full.atom).
                if link.rel == "enclosure", frame.attribute("href")?.isEmpty != true {
                    item.enclosures.append(link.enclosure)
                }
            case (let ns, "guid") where ns.isRSS:
                item.guid = value.nilIfEmpty
                let permaLink = (frame.attribute("isPermaLink") ?? frame.attribute("ispermalink"))?
                    .trimmingSpacesAndTabs.lowercased()
                item.guidIsPermaLink = permaLink != "false"
                item.guidIsDeclaredPermaLink = permaLink == "true"
                item.guidBase = frame.base
            case (let ns, "id") where ns.isAtom:
                item.atomID = item.atomID ?? value.nilIfEmpty
            case (.none, "description"), (.rss10, "description"), (.rss090, "description"), (.none, "abstract"):
                setDescription(&item, 0, value, .html, frame)
            case (.dc, "description"):
                setDescription(&item, 1, value, .html, frame)
            case (.itunes, "summary"):
                setDescription(&item, 2, value, .html, frame)
            case (let ns, "summary") where ns.isAtom:
                if item.descriptions[3] == nil, let text = textConstruct(frame) {
                    item.descriptions[3] = TextValue(text: text.text, kind: text.kind, base: contentBase(frame))
                }
            case (.itunes, "title"):
                // The episode's title in Apple's podcast tags: the item's when it has no `title`.
                if item.itunesTitle == nil { item.itunesTitle = Self.plainTitle(value, isHTML: nil) }
            case (.media, "title"):
                // Media RSS: the title of the media, the item's when it has none of its own.
                if item.mediaTitle == nil {
                    item.mediaTitle = Self.plainTitle(value, isHTML: frame.attribute("type")?.lowercased() == "html")
                }
            case (.media, "description"):
                let kind: FeedItem.TextKind = frame.attribute("type")?.lowercased() == "html" ? .html : .text
                setDescription(&item, 4, value, kind, frame)
            case (.content, "encoded"):
                if item.contents[0] == nil, !value.isEmpty {
                    item.contents[0] = TextValue(text: value, kind: .html, base: contentBase(frame))
                }
            case (let ns, "content") where ns.isAtom:
                if item.contents[1] == nil, frame.attribute("src") == nil,
                    let text = textConstruct(frame, isContent: true)
                {
                    item.contents[1] = TextValue(text: text.text, kind: text.kind, base: contentBase(frame))
                }
            case (let ns, "pubDate") where ns.isRSS:
                item.dates[0] = item.dates[0] ?? date(value, context: "item \(index)")
            case (.dc, "date"):
                item.dates[1] = item.dates[1] ?? date(value, context: "item \(index)")
            // Atom 1.0's and 0.3's names are read in either Atom (gofeed and feedparser do the same): a
            // 0.3 feed's `<updated>` was its entries' only date.
            case (.atom, "published"), (.atom03, "published"), (.atom, "issued"), (.atom03, "issued"),
                (.dcterms, "issued"), (.none, "published"):
                item.dates[2] = item.dates[2] ?? date(value, context: "item \(index)")
            case (.atom, "created"), (.atom03, "created"), (.dcterms, "created"):
                item.dates[3] = item.dates[3] ?? date(value, context: "item \(index)")
            case (.atom, "updated"), (.atom03, "updated"), (.atom, "modified"), (.atom03, "modified"),
                (.dcterms, "modified"), (.none, "updated"):
                item.updated = item.updated ?? date(value, context: "item \(index)")
            case (let ns, "author") where ns.isRSS:
                if let person = FeedText.person(fromRSSAuthor: value) { item.authors.rss.append(person) }
            case (.dc, "creator"), (.dc, "author"):
                if let person = FeedText.person(fromRSSAuthor: value) { item.authors.dcCreators.append(person) }
            case (.itunes, "author"):
                if let person = FeedText.person(fromRSSAuthor: value) { item.authors.itunes.append(person) }
            case (let ns, "category") where ns.isAtom:
                if let term = (frame.attribute("label") ?? frame.attribute("term"))?.nilIfEmpty {
                    item.categories.append(FeedText.collapseWhitespace(term))
                }
            case (let ns, "category") where ns.isRSS:
                if let text = value.nilIfEmpty { item.categories.append(FeedText.collapseWhitespace(text)) }
            case (.dc, "subject"):
                if let text = value.nilIfEmpty { item.categories.append(FeedText.collapseWhitespace(text)) }
            case (let ns, "enclosure") where ns.isRSS:
                if let url = frame.attribute("url").flatMap({ resolved($0, frame) }) {
                    item.enclosures.append(
                        Enclosure(
                            url: url, length: Self.length(frame.attribute("length")),
                            type: frame.attribute("type")?.nilIfEmpty))
                }
            case (.media, "thumbnail"):
                if item.mediaThumbnail == nil, let url = frame.attribute("url").flatMap({ resolved($0, frame) }) {
                    item.mediaThumbnail = url
                }
            case (.itunes, "image"):
                if item.itunesImage == nil,
                    let url = frame.attribute("href").flatMap({ resolved($0, frame) }) ?? resolved(value, frame)
                {
                    item.itunesImage = url
                }
            default:
                break
            }
        }

        /// `media:content url=… type=… medium=… fileSize=…`: an enclosure (kept unless an RSS
        /// enclosure has the same URL) and, for images, an item image candidate.
        private mutating func applyMediaContent(_ frame: Frame) {
            guard item != nil, let url = frame.attribute("url").flatMap({ resolved($0, frame) }) else { return }
            let type = frame.attribute("type")?.nilIfEmpty
            item?.mediaContents.append(
                Enclosure(url: url, length: Self.length(frame.attribute("fileSize")), type: type))
            let medium = frame.attribute("medium")?.lowercased()
            if item?.mediaImage == nil,
                medium == "image" || (medium == nil && type?.lowercased().hasPrefix("image/") == true)
            {
                item?.mediaImage = url
            }
        }

        /// An Atom `link`: its relation (default `alternate`) and the resolved `href` as an enclosure
        /// value (only `rel="enclosure"` uses length and type).
        private func atomLink(_ frame: Frame) -> (rel: String, enclosure: Enclosure)? {
            let href: String?
            if let attribute = frame.attribute("href") {
                // `href=""` is a same-document reference: the base itself (tbray's `rel="self"`).
                href = attribute.isEmpty ? frame.base?.absoluteString : resolved(attribute, frame)
            } else {
                href = frame.text.nilIfEmpty.flatMap { resolved($0, frame) }  // Atom 0.3 drafts put it in the text
            }
            guard let href else { return nil }
            var rel = frame.attribute("rel")?.trimmingSpacesAndTabs.lowercased() ?? "alternate"
            if rel.hasPrefix("http://www.iana.org/assignments/relation/") {
                rel = String(rel.split(separator: "/").last ?? "")
            }
            let enclosure = Enclosure(
                url: href, length: Self.length(frame.attribute("length")), type: frame.attribute("type")?.nilIfEmpty)
            return (rel.isEmpty ? "alternate" : rel, enclosure)
        }

        /// Fills description slot `slot` (see `ItemBuilder.descriptions`) unless already set.
        private func setDescription(
            _ item: inout ItemBuilder, _ slot: Int, _ value: String, _ kind: FeedItem.TextKind, _ frame: Frame
        ) {
            guard item.descriptions[slot] == nil, !value.isEmpty else { return }
            item.descriptions[slot] = TextValue(text: value, kind: kind, base: contentBase(frame))
        }

        private func contentBase(_ frame: Frame) -> String? {
            frame.isBaseDeclared ? frame.base?.absoluteString : nil
        }

        /// An Atom text construct (`type="text"|"html"|"xhtml"`, Atom 0.3 MIME types and `mode`).
        ///
        /// A `type` that is a MIME type neither text nor XML (`application/octet-stream`) means the
        /// value is base64 (RFC 4287 §4.1.3.3), as Atom 0.3's `mode="base64"` does: decoded, it is
        /// kept when it is UTF-8 text (as HTML for an HTML type, else as text) and dropped when it
        /// is binary (an image), so binary never poses as text.
        /// An Atom text construct, or with `isContent` an `atom:content`. Only content of another media
        /// type is base64 by the spec; a title or summary of one (`type="application/x-custom"`, which
        /// Atom 1.0 does not allow) is read as base64 when it decodes as such, else as text.
        private func textConstruct(
            _ frame: Frame, isContent: Bool = false
        ) -> (text: String, kind: FeedItem.TextKind)? {
            let defaultType = frame.namespace == .atom03 ? "text/plain" : "text"
            let given = (frame.attribute("type") ?? "").trimmingSpacesAndTabs.lowercased()
            // An empty or unknown token (`type=""`, `type="plain"`: not a MIME type) is the default.
            let isToken = given == "text" || given == "html" || given == "xhtml"
            let type = given.isEmpty || (!isToken && !given.contains("/")) ? defaultType : given
            let mode = frame.attribute("mode")?.trimmingSpacesAndTabs.lowercased()
            let isHTML = type == "html" || type == "text/html"
            let isXHTML = frame.isXHTMLConstruct
            let isText = type == "text" || type.hasPrefix("text/")
            let isXML = type.hasSuffix("/xml") || type.hasSuffix("+xml")
            if mode == "base64" || (frame.namespace == .atom && !isHTML && !isXHTML && !isText && !isXML) {
                let compact = String(frame.text.unicodeScalars.filter { !$0.properties.isWhitespace })
                guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters),
                    let decoded = String(validating: data, as: UTF8.self),
                    isContent || mode == "base64" || !decoded.utf8.contains(where: { $0 < 0x20 && !isXMLSpace($0) })
                else {
                    guard !isContent, mode != "base64" else { return nil }
                    return frame.text.trimmingWhitespace.nilIfEmpty.map { ($0, .text) }
                }
                let trimmed = decoded.trimmingWhitespace
                return trimmed.isEmpty ? nil : (trimmed, isHTML || isXHTML ? .html : .text)
            }
            let result: (String, FeedItem.TextKind)
            if frame.childElementCount > 0 {
                result = (frame.unwrappedMarkup, .html)
            } else if isXHTML {
                // XHTML without its `<div>` (or any element): the text, escaped as the HTML it is read as.
                result = (FeedText.escapeText(frame.text), .html)
            } else if isHTML {
                result = (frame.text, .html)
            } else if isText || isXML {
                result = (frame.text, .text)
            } else {
                return nil
            }
            let trimmed = result.0.trimmingWhitespace
            return trimmed.isEmpty ? nil : (trimmed, result.1)
        }

        private func atomTitle(_ frame: Frame) -> String? {
            guard let construct = textConstruct(frame) else { return nil }
            return Self.plainTitle(construct.text, isHTML: construct.kind == .html)
        }

        /// Titles are plain text: HTML ones (Atom `type="html"`, or RSS titles that contain tags or
        /// character references) have tags stripped and entities decoded once.
        static func plainTitle(_ value: String, isHTML: Bool?) -> String? {
            let html = isHTML ?? FeedText.looksLikeHTML(value)
            let title = html ? FeedText.plainText(fromHTML: value) : FeedText.collapseWhitespace(value)
            return title.nilIfEmpty
        }

        /// An RSS `<link>`'s URL: its text, or when it has none its `href` (an Atom-style
        /// `<link href="…"/>` written without Atom's namespace).
        private static func rssLink(_ text: String, _ frame: Frame) -> String {
            guard text.allSatisfy(\.isWhitespace), let href = frame.attribute("href") else { return text }
            return href
        }

        private func resolved(_ reference: String, _ frame: Frame) -> String? {
            FeedText.resolve(reference, against: frame.base)
        }

        private mutating func date(_ value: String, context: String) -> Date? {
            let trimmed = value.trimmingWhitespace
            guard !trimmed.isEmpty else { return nil }
            if let date = FeedDate.parse(trimmed) { return date }
            warnings.append("\(context): unparseable date '\(trimmed.prefix(80))'")
            return nil
        }

        private static func length(_ value: String?) -> Int? {
            value.flatMap { Int($0.trimmingSpacesAndTabs) }.flatMap { $0 >= 0 ? $0 : nil }
        }

        // MARK: - Re-serialising child markup

        private mutating func serialiseStart(_ name: String, namespace: Namespace, attributes: [String: String]) {
            let top = stack.count - 1
            if stack[top].childElementCount == 0, captureDepth == 0 {
                stack[top].markup = FeedText.escapeText(stack[top].text)
                stack[top].hasTextOutsideWrapper = stack[top].text.contains { !$0.isWhitespace }
            }
            if captureDepth == 0 { stack[top].childElementCount += 1 }
            captureDepth += 1
            if let declared = attributes["xml:base"] {
                // An `xml:base` inside the markup applies to its own subtree only: the links there are
                // resolved now, since the item keeps one base (`contentBase`, the field's) for the rest.
                let parentBase = capturedBases.last?.base ?? stack[top].base
                let base = FeedText.resolve(declared, against: parentBase).flatMap { URL(string: $0) } ?? parentBase
                capturedBases.append((captureDepth, base))
            }
            var tag = "<" + name
            // Sorted so output is deterministic (the XML parser hands attributes over as a dictionary).
            for key in attributes.keys.sorted() where key != "xml:base" {
                var value = attributes[key] ?? ""
                if let base = capturedBases.last?.base, FeedParser.urlAttributes.contains(key.lowercased()) {
                    value = FeedText.resolve(value, against: base) ?? value
                }
                tag += " \(key)=\"\(FeedText.escapeAttribute(value))\""
            }
            tag += ">"
            stack[top].markup += tag
            if captureDepth == 1, stack[top].childElementCount == 1, namespace == .xhtml, name == "div" {
                stack[top].wrapperStart = stack[top].markup.utf8.count
            }
        }

        private mutating func serialiseEnd(_ name: String, namespace: Namespace) {
            let top = stack.count - 1
            if captureDepth == 1, stack[top].wrapperStart != nil, stack[top].wrapperEnd == nil {
                stack[top].wrapperEnd = stack[top].markup.utf8.count
            }
            if capturedBases.last?.depth == captureDepth { capturedBases.removeLast() }
            captureDepth -= 1
            if !FeedParser.voidElementNames.contains(name.lowercased()) {
                stack[top].markup += "</" + name + ">"
            }
        }
    }
}

extension FeedParser {
    /// Atom's elements that RSS has no element of the same name for.
    static let atomOnlyNames: Set<Substring> = [
        "id", "updated", "published", "summary", "content", "subtitle", "rights", "contributor", "icon", "logo",
    ]

    /// Root element names that mean "this is an HTML page" (an error page, a login wall, a redirect
    /// body), including fragments like IIS's `<head><title>Document Moved</title></head>`.
    static let htmlElementNames: Set<String> = [
        "html", "head", "body", "title", "meta", "div", "p", "a", "script", "h1",
    ]

    /// The root elements a feed can have (local names, lowercased): RSS, Atom, RDF and CDF's `<CHANNEL>`.
    static let feedRootNames: Set<String> = ["rss", "feed", "rdf", "channel"]

    /// The element names the state machine knows, by their lowercase form: feeds written by hand
    /// spell them in any case (`<pubdate>`, `<Title>`, `<LINK>`), and readers have always matched
    /// them without it. `XMLEventReader` maps every element name through this once per name.
    static let knownElementNames: [String: String] = {
        let names = [
            "rss", "RDF", "channel", "item", "items", "image", "textInput", "title", "link", "description",
            "language", "copyright", "managingEditor", "webMaster", "pubDate", "lastBuildDate", "category",
            "generator", "author", "enclosure", "guid", "url", "feed", "entry", "contributor", "subtitle", "tagline",
            "updated", "modified", "rights", "icon", "logo", "info", "id", "published", "issued", "created",
            "summary", "content", "name", "email", "uri", "creator", "date", "subject", "encoded", "group",
            "thumbnail", "publisher", "source", "abstract",
        ]
        var table: [String: String] = [:]
        for name in names { table[name.lowercased()] = name }
        return table
    }()

    /// HTML attributes that hold a URL, resolved against an `xml:base` inside serialised markup.
    static let urlAttributes: Set<String> = [
        "href", "src", "cite", "poster", "longdesc", "action", "background", "data", "formaction", "icon",
        "manifest", "usemap", "profile", "codebase", "classid", "xlink:href",
    ]

    /// HTML void elements: re-serialised without an end tag.
    static let voidElementNames: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]

    /// Description/content text with where it came from.
    struct TextValue: Equatable {
        var text: String
        var kind: FeedItem.TextKind
        /// The declared `xml:base` in scope on the element, resolved.
        var base: String?
    }

    /// The Atom `rel="alternate"` link to use among several: the first whose `type` is HTML (or
    /// not given), else the first (RFC 4287 allows one alternate per type and language, and the
    /// web page is the one a reader links to).
    struct AlternateLink {
        private(set) var url: String?
        private var isHTML = false

        mutating func offer(_ link: Enclosure) {
            let type = link.type?.lowercased()
            let isHTML = type == nil || type?.contains("html") == true
            guard url == nil || (isHTML && !self.isHTML) else { return }
            url = link.url
            self.isHTML = isHTML
        }
    }

    /// Collects one item's candidate values; `build` applies the precedence rules of DESIGN §2.
    struct ItemBuilder {
        var index: Int
        var guid: String?
        var guidIsPermaLink = true
        /// `isPermaLink="true"` written out: then a relative guid (`/blog/post`) is a link too.
        var guidIsDeclaredPermaLink = false
        var guidBase: URL?
        var atomID: String?
        var rdfAbout: String?
        var title: String?
        /// `media:title`: the title when the item has no `title`.
        var mediaTitle: String?
        /// `itunes:title`: the title when the item has neither `title` nor `media:title`.
        var itunesTitle: String?
        var rssLink: String?
        var atomAlternate = AlternateLink()
        /// RSS `description`, `dc:description`, `itunes:summary`, Atom `summary`, `media:description`.
        var descriptions: [TextValue?] = [nil, nil, nil, nil, nil]
        /// `content:encoded`, Atom `content`.
        var contents: [TextValue?] = [nil, nil]
        /// `pubDate`, `dc:date`, Atom `published`/0.3 `issued`, `created`.
        var dates: [Date?] = [nil, nil, nil, nil]
        var updated: Date?
        var authors = AuthorCandidates()
        var categories: [String] = []
        var mediaThumbnail: String?
        var mediaImage: String?
        var itunesImage: String?
        var enclosures: [Enclosure] = []
        var mediaContents: [Enclosure] = []

        func build(warnings: inout [String]) -> FeedItem {
            let description = descriptions.lazy.compactMap { $0 }.first
            let content = contents.lazy.compactMap { $0 }.first
            var item = FeedItem()
            item.id = guid ?? atomID ?? rdfAbout ?? ""
            item.link = atomAlternate.url ?? rssLink ?? permaLink ?? atomIDLink
            item.description = description?.text
            item.descriptionKind = description?.kind ?? .html
            item.content = content?.text
            item.contentKind = content?.kind ?? .html
            item.contentBase = content?.base ?? description?.base
            item.published = dates.lazy.compactMap { $0 }.first ?? updated
            item.updated = updated
            item.authors = authors.chosen
            var seen = Set<String>()
            item.categories = categories.filter { seen.insert($0).inserted }
            if let image = mediaThumbnail ?? mediaImage ?? itunesImage { item.image = FeedImage(url: image) }
            var enclosures = self.enclosures
            var urls = Set(enclosures.map(\.url))
            for media in mediaContents where urls.insert(media.url).inserted {
                enclosures.append(media)
            }
            item.enclosures = enclosures
            if let title = title ?? mediaTitle ?? itunesTitle {
                item.title = title
            } else if let source = description ?? content {
                item.title =
                    source.kind == .html
                    ? FeedText.derivedTitle(fromHTML: source.text)
                    : FeedText.derivedTitle(fromHTML: FeedText.escapeText(source.text))
                item.isTitleDerived = !item.title.isEmpty
            }
            return item
        }

        /// An Atom `id` that is an http(s) URL is the link of an entry that has no other (many
        /// generators make the permalink the id); `tag:` and `urn:` ids are not links.
        private var atomIDLink: String? {
            guard let atomID, let scheme = URL(string: atomID)?.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            else { return nil }
            return atomID
        }

        /// A `guid` is the link when it is a permalink (the RSS default) and actually an http(s) URL:
        /// many feeds omit `isPermaLink="false"` on opaque ids like `tag:` URIs or numbers. A
        /// relative one (`/blog/post`) is a link only when `isPermaLink="true"` is written out, and
        /// it is resolved against `xml:base` or the feed's address.
        private var permaLink: String? {
            guard guidIsPermaLink, let guid else { return nil }
            if let scheme = URL(string: guid)?.scheme?.lowercased() {
                return scheme == "http" || scheme == "https" ? FeedText.resolve(guid, against: guidBase) : nil
            }
            guard guidIsDeclaredPermaLink, guid.contains("/"), let resolved = FeedText.resolve(guid, against: guidBase),
                let scheme = URL(string: resolved)?.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { return nil }
            return resolved
        }
    }

    /// The authors an item or a channel names, by where they were named: the first source that
    /// names any wins (RSS `author` or `managingEditor`, then `dc:creator`, `itunes:author`, Atom).
    struct AuthorCandidates {
        var rss: [Person] = []
        var dcCreators: [Person] = []
        var itunes: [Person] = []
        var atom: [Person] = []

        var chosen: [Person] { [rss, dcCreators, itunes, atom].first { !$0.isEmpty } ?? [] }
    }

    /// Collects the channel's candidate values.
    struct ChannelBuilder {
        var title: String?
        var rssLink: String?
        var atomAlternate = AlternateLink()
        var feedLink: String?
        /// RSS `description`, `dc:description`, `itunes:summary`, Atom `subtitle`.
        var descriptions: [String?] = [nil, nil, nil, nil]
        /// `language`/`dc:language` first, then `xml:lang` on an Atom feed.
        var languages: [String] = []
        var copyright: String?
        var generator: String?
        var pubDate: Date?
        var lastBuildDate: Date?
        var atomUpdated: Date?
        var dcDate: Date?
        var authors = AuthorCandidates()
        var categories: [String] = []
        var imageURL: String?
        var imageTitle: String?
        var imageLink: String?
        var webMaster: Person?
        var dcPublisher: Person?
        /// After `image/url` (the two fields above): `itunes:image`, Atom `logo`, Atom `icon`.
        var images: [FeedImage?] = [nil, nil, nil]

        func build(format: Feed.Format, version: String) -> Feed {
            var feed = Feed(format: format, version: version)
            feed.title = title ?? ""
            feed.description = descriptions.lazy.compactMap { $0 }.first
            feed.link = rssLink ?? atomAlternate.url
            feed.feedLink = feedLink
            feed.language = languages.first
            feed.copyright = copyright
            feed.generator = generator
            feed.updated = atomUpdated ?? lastBuildDate ?? dcDate
            feed.published = pubDate ?? dcDate
            feed.authors = authors.chosen
            var seen = Set<String>()
            feed.categories = categories.filter { seen.insert($0).inserted }
            feed.publisher = webMaster ?? dcPublisher
            let rssImage = imageURL.map { FeedImage(url: $0, title: imageTitle, link: imageLink) }
            feed.image = rssImage ?? images.lazy.compactMap { $0 }.first
            return feed
        }
    }
}

extension String {
    /// Nil for an empty string, so `??` chains skip empty elements.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
