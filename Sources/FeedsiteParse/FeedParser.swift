import FeedsiteShared
import Foundation

/// Turns the bytes of a fetched feed into a `Feed`.
///
/// The format is detected from the content (a JSON object, or the XML root element), never from a
/// Content-Type or file extension, which servers get wrong. XML goes through libxml2's event-driven
/// SAX2 parser (`XMLEventReader`) into `FeedParser.StateMachine`; when the XML is malformed, one repair
/// pass (`FeedParser+Repair.swift`) fixes what feeds typically get wrong and the document is parsed
/// again in libxml2's recovery mode. No DTD, external entity or network access happens in any mode:
/// DOCTYPEs are removed before parsing.
package struct FeedParser: Sendable {
    /// Tests only: skip the strict parse, so the repair and recovery path runs on well-formed
    /// documents too (and can be held to reading them exactly as the strict parse does).
    let isRecoveryForced: Bool

    package init() {
        isRecoveryForced = false
    }

    init(forcingRecovery: Bool) {
        isRecoveryForced = forcingRecovery
    }

    /// A compressed container a feed body can come in without saying so.
    package typealias Compression = CompressionHeader

    /// The compression `data` starts with, if any (no feed starts like either).
    package static func compression(of data: Data) -> Compression? {
        CompressionHeader(startOf: data)
    }

    /// Detects the format by content (root element / JSON), never by Content-Type or extension.
    ///
    /// `url` is the feed's final URL after redirects: the last base for relative links.
    /// `contentType` is the HTTP `Content-Type` header, when the feed came over HTTP; only its
    /// `charset` is used, in the order described at `decodeToUTF8(_:contentType:)`.
    package func parse(_ data: Data, url: URL?, contentType: String? = nil) throws(FeedParseError) -> Feed {
        // gzip's or zlib's header: the body was compressed once more than the response said.
        if let compression = Self.compression(of: data) {
            throw FeedParseError(
                message: "the document is \(compression)-compressed data that the server did not declare (no"
                    + " Content-Encoding: \(compression.contentEncoding)): it compresses the feed twice, or serves"
                    + " a compressed file as the feed")
        }
        // An image or archive where the feed should be, named by its signature before any decoding
        // (which would read a PNG's first byte as windows-1252).
        if let kind = Self.binaryKind(of: [UInt8](data.prefix(16))[...]) {
            throw FeedParseError(
                line: 1, column: 1, message: "the document is \(kind), not a feed; check the feed's address")
        }
        let decoded = Self.decodeToUTF8(data, contentType: contentType)
        var feed: Feed
        do {
            feed = try parseDocument(decoded, url: url)
        } catch  where error.isBinaryData {
            // Shown as received, not as transcoded (0xF8 read as windows-1252 is C3 B8 in UTF-8).
            let start = data.firstIndex { !Self.isXMLSpace($0) } ?? data.startIndex
            throw Self.binaryData(data[start...], line: error.line, column: error.column)
        }
        // A local file has no address on the web: its relative references are resolved against the
        // address the feed gives itself (`atom:link rel="self"`), else its web site, as they would
        // be had it been fetched from there. Known only once read, so the file is read again.
        if url?.isFileURL == true, let base = Self.webBase(of: feed) {
            feed = try parseDocument(decoded, url: base)
        }
        if decoded.isUTF8 { feed.repairDoubleEncodedText() }
        feed.replaceC1Controls()
        feed.limitSizes()
        return feed
    }

    /// The feed's own http(s) address, else its web site's (absolute ones only).
    package static func webBase(of feed: Feed) -> URL? {
        for candidate in [feed.feedLink, feed.link] {
            guard let value = candidate?.trimmingWhitespace, let url = URL(string: value),
                let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
            else { continue }
            return url
        }
        return nil
    }

    private func parseDocument(_ decoded: DecodedDocument, url: URL?) throws(FeedParseError) -> Feed {
        var bytes = decoded.bytes
        var lineOffset = 0
        Self.stripLeadingNoise(&bytes, lineOffset: &lineOffset)
        let skipped = Self.skipTextBeforeFeed(&bytes, lineOffset: &lineOffset)
        guard let first = bytes.first else { throw .empty }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var feed = try parseJSONFeed(Data(bytes), url: url, lineOffset: lineOffset)
            feed.warnings = decoded.warnings + feed.warnings
            return feed
        }
        var document = try Self.prepareXML(bytes, lineOffset: lineOffset)
        document.warnings = decoded.warnings + (skipped.map { [$0] } ?? []) + document.warnings
        Self.limitAttributes(&document)
        let strict = isRecoveryForced ? .failure(XMLFailure.forced) : parseXML(document, url: url)
        switch strict {
        case .success(let feed):
            return feed
        case .failure(let outcome):
            guard outcome.isMalformedXML else { throw outcome.error }
            // Not well-formed ("bozo"): repair what feeds typically get wrong, then read what is still
            // broken in libxml2's recovery mode. Each fix is a located warning; only a document with
            // no feed left in it fails, with the strict parse's diagnosis.
            if let repaired = Self.repair(document.bytes, lineOffset: lineOffset, balancingTags: true) {
                document.bytes = repaired.bytes
                document.warnings += repaired.warnings
            }
            switch parseXML(document, url: url, isRecovering: true) {
            case .success(let feed): return feed
            case .failure: throw outcome.error
            }
        }
    }

    /// Why an XML parse produced no feed, and whether a repair pass could help.
    struct XMLFailure: Error {
        var error: FeedParseError
        var isMalformedXML: Bool

        static let forced = XMLFailure(error: FeedParseError(message: "recovery forced"), isMalformedXML: true)
    }

    /// Runs libxml2 over a prepared document (`XMLEventReader`), forwarding events to a fresh state machine.
    private func parseXML(_ document: PreparedXML, url: URL?, isRecovering: Bool = false) -> Result<Feed, XMLFailure> {
        var machine = StateMachine(documentURL: url)
        XMLEventReader(lineOffset: document.lineOffset, isRecovering: isRecovering).read(
            document.bytes, into: &machine)
        // The parse can end without an error event (e.g. the machine stopped it), so trust the machine.
        do {
            var feed = try machine.finish()
            feed.warnings = document.warnings + feed.warnings
            return .success(feed)
        } catch {
            return .failure(XMLFailure(error: error, isMalformedXML: machine.sawMalformedXML))
        }
    }
}

extension FeedParser {
    /// libxml2 codes that are warnings or namespace errors (`XML_WAR_*`, `XML_NS_ERR_*`).
    package static let nonFatalXMLErrorCodes: Set<Int> = [97, 98, 99, 100, 101, 102, 200, 201, 202, 203, 204, 205]

    /// A readable text for libxml2's error code (`xmlError.code`).
    package static func describeXMLError(code: Int) -> String {
        let text: String =
            switch code {
            case 4: "the document is empty"
            // libxml2's push parser reports both a cut-off document and content after the root so.
            case 5: "the document does not end where its root element does (cut off, or extra content after it)"
            case 9: "a character that is not allowed in XML"
            case 23: "an entity reference is missing its ';'"
            case 26: "undefined entity"
            case 30, 31, 32: "unsupported character encoding"
            case 38: "'<' inside an attribute value"
            case 39, 40, 41: "malformed attribute"
            case 42: "an attribute appears twice on one element"
            case 45: "a comment is never closed"
            case 47: "a processing instruction is never closed"
            case 62: "']]>' outside a CDATA section"
            case 63: "a CDATA section is never closed"
            case 64: "the XML declaration is not at the start of the document"
            case 65: "a space is missing between attributes, or the document ends inside a tag"
            case 68: "a '&' or '<' that does not start a reference or a tag (it should be escaped)"
            case 73: "a tag is not closed with '>'"
            case 76: "mismatched end tag"
            case 77: "an element is never closed"
            case 80: "'--' inside a comment"
            case 85: "the elements are not properly nested"
            case 86: "extra content after the root element"
            case 111: "parsing was stopped"
            default: "XML error \(code)"
            }
        return text
    }
}
