internal import CLibXML2

/// Reads one XML document with libxml2's SAX2 parser and hands every event to a
/// `FeedParser.StateMachine`; the only file that talks to libxml2.
///
/// The callbacks work on libxml2's UTF-8 buffers directly: names and text become Swift strings
/// with one copy, and nothing goes through Foundation. They only forward events; every decision
/// is the state machine's. The parse is configured as `XMLParser` was (so results, diagnostics
/// and their positions are unchanged): a push parser fed the whole document at once, attributes
/// keyed `prefix:local` (namespace declarations are not attributes), the first error that is not
/// a warning or a namespace error stops it. No DTD is loaded and nothing is fetched
/// (`XML_PARSE_NONET`, no `XML_PARSE_DTDLOAD`), and DOCTYPEs are removed before this (`prepareXML`),
/// so no entity but the five predefined ones exists.
struct XMLEventReader {
    /// Lines removed before the document (leading blank lines), added back to reported positions.
    var lineOffset: Int

    /// Parses `bytes` (UTF-8), forwarding events to `machine`, until the document ends, the
    /// machine asks to stop, or libxml2 reports an error (passed to `machine.error`).
    func read(_ bytes: [UInt8], into machine: inout FeedParser.StateMachine) {
        // XMLParser waits for 4 bytes before it creates its parser, so shorter input produces no event.
        guard bytes.count >= 4 else { return }
        _ = Self.libraryInitialised
        var sink = EventSink(machine: machine, lineOffset: lineOffset)
        defer { machine = sink.machine }
        var handler = Self.handler
        withUnsafeMutablePointer(to: &sink) { sinkPointer in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    guard let start = chars.baseAddress else { return }
                    // The first 4 bytes let libxml2 detect the encoding, as XMLParser does it.
                    guard let context = xmlCreatePushParserCtxt(&handler, sinkPointer, start, 4, nil) else { return }
                    defer { xmlFreeParserCtxt(context) }
                    sinkPointer.pointee.context = context
                    // NOENT only makes attribute values arrive decoded (`&amp;` as `&`, not `&#38;`): with
                    // the DOCTYPE removed, the predefined entities are the only ones there are.
                    let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue
                    _ = xmlCtxtUseOptions(context, Int32(options))
                    _ = xmlParseChunk(context, start + 4, Int32(clamping: chars.count - 4), 1)
                }
            }
        }
    }

    /// libxml2 2.9 wants `xmlInitParser` once per process before threads use it; a `static let`
    /// runs it exactly once, thread-safely.
    private static let libraryInitialised: Void = xmlInitParser()

    /// The SAX2 callbacks. libxml2 copies the handler into each parser context.
    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { userData, localName, prefix, uri, _, _, attributeCount, _, attributes in
            guard let sink = EventSink.from(userData), let localName else { return }
            sink.pointee.startElement(localName, prefix, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { userData, localName, prefix, uri in
            guard let sink = EventSink.from(userData), let localName else { return }
            sink.pointee.endElement(localName, prefix, uri)
        }
        handler.characters = { userData, characters, length in
            guard let sink = EventSink.from(userData), let characters else { return }
            sink.pointee.machine.characters(EventSink.string(characters, count: Int(length)))
        }
        // libxml2 reports whitespace as ignorable only when it builds a tree; forward it as text anyway.
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { userData, characters, length in
            guard let sink = EventSink.from(userData), let characters else { return }
            sink.pointee.machine.cdata(EventSink.string(characters, count: Int(length)))
        }
        handler.processingInstruction = { userData, target, data in
            guard let sink = EventSink.from(userData), let target else { return }
            sink.pointee.machine.processingInstruction(
                target: String(cString: target), data: data.map { String(cString: $0) })
        }
        handler.serror = { userData, error in
            guard let sink = EventSink.from(userData), let error else { return }
            sink.pointee.error(code: Int(error.pointee.code))
        }
        return handler
    }
}

/// What libxml2's callbacks reach through `userData`: the state machine and what diagnostics need.
/// It lives on `read`'s stack for one parse and never escapes it.
private struct EventSink {
    var machine: FeedParser.StateMachine
    let lineOffset: Int
    /// The parser context, for positions and for stopping; set right after it is created.
    var context: xmlParserCtxtPtr?
    private var sawRoot = false

    init(machine: FeedParser.StateMachine, lineOffset: Int) {
        self.machine = machine
        self.lineOffset = lineOffset
    }

    static func from(_ userData: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<EventSink>? {
        userData?.assumingMemoryBound(to: EventSink.self)
    }

    static func string(_ bytes: UnsafePointer<xmlChar>, count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private var position: FeedParser.StateMachine.Position {
        .init(
            line: Int(xmlSAX2GetLineNumber(context)) + lineOffset, column: Int(xmlSAX2GetColumnNumber(context)))
    }

    mutating func startElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        let name = String(cString: localName)
        var attributeDictionary: [String: String] = [:]
        if attributeCount > 0, let attributes {
            attributeDictionary.reserveCapacity(attributeCount)
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for index in stride(from: 0, to: attributeCount * 5, by: 5) {
                guard let attributeName = attributes[index], let start = attributes[index + 3],
                    let end = attributes[index + 4]
                else { continue }
                var key = String(cString: attributeName)
                if let attributePrefix = attributes[index + 1], attributePrefix.pointee != 0 {
                    key = String(cString: attributePrefix) + ":" + key
                }
                attributeDictionary[key] = Self.string(start, count: end - start)
            }
        }
        // The position is only needed to diagnose the root element.
        let at = sawRoot ? nil : position
        sawRoot = true
        if machine.startElement(
            name, namespaceURI: uri.map { String(cString: $0) } ?? "",
            qualifiedName: prefix.map { String(cString: $0) + ":" + name } ?? name, attributes: attributeDictionary,
            at: at) == .stop
        {
            xmlStopParser(context)
        }
    }

    mutating func endElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) {
        let name = String(cString: localName)
        machine.endElement(
            name, namespaceURI: uri.map { String(cString: $0) } ?? "",
            qualifiedName: prefix.map { String(cString: $0) + ":" + name } ?? name)
    }

    mutating func error(code: Int) {
        // libxml2 reports namespace problems (undeclared prefix, relative or invalid namespace URI)
        // through the same channel; they do not make the XML malformed, so parsing continues.
        guard !FeedParser.nonFatalXMLErrorCodes.contains(code) else { return }
        machine.error(FeedParser.describeXMLError(code: code), at: position)
        xmlStopParser(context)
    }
}
