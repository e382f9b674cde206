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
                    sinkPointer.pointee.flushText()
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
            sink.pointee.characters(characters, count: Int(length))
        }
        // libxml2 reports whitespace as ignorable only when it builds a tree; forward it as text anyway.
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { userData, characters, length in
            guard let sink = EventSink.from(userData), let characters else { return }
            sink.pointee.cdata(characters, count: Int(length))
        }
        handler.processingInstruction = { userData, target, data in
            guard let sink = EventSink.from(userData), let target else { return }
            sink.pointee.processingInstruction(target, data)
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
///
/// Two savings over building every event's strings: consecutive character data (libxml2 delivers it
/// in pieces of at most 300 bytes, and around every reference) is gathered as bytes and handed over
/// as one string, and only while the machine keeps text; names and namespace URIs, which libxml2
/// interns in its dictionary for the whole parse, become strings once per distinct pointer.
private struct EventSink {
    var machine: FeedParser.StateMachine
    let lineOffset: Int
    /// The parser context, for positions, stopping and its name dictionary; set right after creation.
    var context: xmlParserCtxtPtr?
    private var sawRoot = false
    /// `machine.isReadingText`, refreshed after the events that can change it (start, end, error).
    private var isReadingText = false
    private var pendingText: [UInt8] = []
    /// Strings for interned local names and URIs, and for interned (prefix, local name) pairs.
    private var names: [UnsafeRawPointer: String] = [:]
    private var qualifiedNames: [QualifiedNameKey: String] = [:]

    private struct QualifiedNameKey: Hashable {
        var prefix: UnsafeRawPointer
        var localName: UnsafeRawPointer
    }

    init(machine: FeedParser.StateMachine, lineOffset: Int) {
        self.machine = machine
        self.lineOffset = lineOffset
        pendingText.reserveCapacity(4096)
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

    /// Whether libxml2 keeps `name` in its dictionary, i.e. the pointer stands for one string all parse long.
    private func isInterned(_ name: UnsafePointer<xmlChar>) -> Bool {
        guard let dictionary = context?.pointee.dict else { return false }
        return xmlDictOwns(dictionary, name) == 1
    }

    private mutating func name(_ name: UnsafePointer<xmlChar>) -> String {
        if let known = names[UnsafeRawPointer(name)] { return known }
        let string = String(cString: name)
        if isInterned(name) { names[UnsafeRawPointer(name)] = string }
        return string
    }

    /// `prefix:localName`, or `localName` without a prefix (or with an empty one).
    private mutating func qualifiedName(
        _ prefix: UnsafePointer<xmlChar>?, _ localName: UnsafePointer<xmlChar>
    )
        -> String
    {
        guard let prefix, prefix.pointee != 0 else { return name(localName) }
        let key = QualifiedNameKey(prefix: UnsafeRawPointer(prefix), localName: UnsafeRawPointer(localName))
        if let known = qualifiedNames[key] { return known }
        let string = String(cString: prefix) + ":" + String(cString: localName)
        if isInterned(prefix), isInterned(localName) { qualifiedNames[key] = string }
        return string
    }

    /// Hands the gathered character data to the machine; called before every other event.
    mutating func flushText() {
        guard !pendingText.isEmpty else { return }
        machine.characters(String(decoding: pendingText, as: UTF8.self))
        pendingText.removeAll(keepingCapacity: true)
    }

    mutating func characters(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard isReadingText else { return }
        pendingText.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    mutating func cdata(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        flushText()
        guard isReadingText else { return }
        machine.cdata(Self.string(bytes, count: count))
    }

    mutating func processingInstruction(_ target: UnsafePointer<xmlChar>, _ data: UnsafePointer<xmlChar>?) {
        flushText()
        machine.processingInstruction(target: String(cString: target), data: data.map { String(cString: $0) })
    }

    mutating func startElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        flushText()
        var attributeDictionary: [String: String] = [:]
        if attributeCount > 0, let attributes {
            attributeDictionary.reserveCapacity(attributeCount)
            // Five pointers per attribute: local name, prefix, URI, value start, value end.
            for index in stride(from: 0, to: attributeCount * 5, by: 5) {
                guard let attributeName = attributes[index], let start = attributes[index + 3],
                    let end = attributes[index + 4]
                else { continue }
                let key = qualifiedName(attributes[index + 1], attributeName)
                attributeDictionary[key] = Self.string(start, count: end - start)
            }
        }
        // The position is only needed to diagnose the root element.
        let at = sawRoot ? nil : position
        sawRoot = true
        let action = machine.startElement(
            name(localName), namespaceURI: uri.map { name($0) } ?? "", qualifiedName: qualifiedName(prefix, localName),
            attributes: attributeDictionary, at: at)
        isReadingText = machine.isReadingText
        if action == .stop { xmlStopParser(context) }
    }

    mutating func endElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) {
        flushText()
        machine.endElement(
            name(localName), namespaceURI: uri.map { name($0) } ?? "", qualifiedName: qualifiedName(prefix, localName))
        isReadingText = machine.isReadingText
    }

    mutating func error(code: Int) {
        // libxml2 reports namespace problems (undeclared prefix, relative or invalid namespace URI)
        // through the same channel; they do not make the XML malformed, so parsing continues.
        guard !FeedParser.nonFatalXMLErrorCodes.contains(code) else { return }
        flushText()
        machine.error(FeedParser.describeXMLError(code: code), at: position)
        isReadingText = false
        xmlStopParser(context)
    }
}
