internal import CLibXML2

/// Reads one XML document with libxml2's SAX2 parser and hands every event to a
/// `FeedParser.StateMachine`; the only file that talks to libxml2.
///
/// The callbacks work on libxml2's UTF-8 buffers directly: names and text become Swift strings
/// with one copy, and nothing goes through Foundation. They only forward events; every decision
/// is the state machine's. The parse is configured as `XMLParser` was (so results, diagnostics
/// and their positions are unchanged): a push parser fed the whole document at once, attributes
/// keyed `prefix:local` (namespace declarations are not attributes), the first error that is not
/// a warning or a namespace error stops it — unless `isRecovering`, when libxml2's recovery mode
/// (`XML_PARSE_RECOVER`) reads on and each error becomes a located warning. No DTD is loaded and
/// nothing is fetched (`XML_PARSE_NONET`, no `XML_PARSE_DTDLOAD`), DOCTYPEs are removed before this
/// (`prepareXML`) and the handler has no entity callbacks, so no entity but the five predefined
/// ones exists, in every mode. `XML_PARSE_HUGE` lifts libxml2's 10 MB text and lookup limits: the
/// size of a feed is bounded by `max_body_mb` instead, and with no entities there is nothing to
/// amplify.
struct XMLEventReader {
    /// Lines removed before the document (leading blank lines), added back to reported positions.
    var lineOffset: Int
    /// Read past well-formedness errors (libxml2's recovery mode), reporting each as a warning.
    /// Only for documents that failed the strict parse: the strict parse is the fast path.
    var isRecovering = false

    init(lineOffset: Int, isRecovering: Bool = false) {
        self.lineOffset = lineOffset
        self.isRecovering = isRecovering
    }

    /// Parses `bytes` (UTF-8), forwarding events to `machine`, until the document ends, the
    /// machine asks to stop, or libxml2 reports an error (passed to `machine.error`).
    func read(_ bytes: [UInt8], into machine: inout FeedParser.StateMachine) {
        // XMLParser waits for 4 bytes before it creates its parser, so shorter input produces no event.
        guard bytes.count >= 4 else { return }
        _ = Self.libraryInitialised
        var sink = EventSink(machine: machine, lineOffset: lineOffset, isRecovering: isRecovering)
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
                    var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOENT.rawValue | XML_PARSE_HUGE.rawValue
                    if isRecovering { options |= XML_PARSE_RECOVER.rawValue }
                    _ = xmlCtxtUseOptions(context, Int32(options))
                    _ = xmlParseChunk(context, start + 4, Int32(clamping: chars.count - 4), 1)
                    sinkPointer.pointee.flushText()
                    sinkPointer.pointee.finishRecovery()
                }
            }
        }
    }

    /// The deepest element nesting read (libxml2's own limit, 256, is off in huge mode).
    static let maximumDepth = 1024

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
    let isRecovering: Bool
    /// The parser context, for positions, stopping and its name dictionary; set right after creation.
    var context: xmlParserCtxtPtr?
    /// `machine.isReadingText`, refreshed after the events that can change it (start, end, error).
    private var isReadingText = false
    private var pendingText: [UInt8] = []
    /// Strings for interned local names and URIs, and for interned (prefix, local name) pairs.
    private var names: [UnsafeRawPointer: String] = [:]
    private var elementNames: [UnsafeRawPointer: String] = [:]
    private var qualifiedNames: [QualifiedNameKey: String] = [:]
    /// In recovery mode only: the elements the machine has open, to keep it in step with libxml2,
    /// which may drop an element from its stack without an end event (a start tag it could not finish).
    private var openElements: [OpenElement] = []
    /// In recovery mode: the errors libxml2 recovered from, by message, with the first line and a count.
    private var recoveries: [(message: String, line: Int, count: Int)] = []

    private struct QualifiedNameKey: Hashable {
        var prefix: UnsafeRawPointer
        var localName: UnsafeRawPointer
    }

    private struct OpenElement {
        var localName: String
        var namespaceURI: String
        var qualifiedName: String
    }

    init(machine: FeedParser.StateMachine, lineOffset: Int, isRecovering: Bool) {
        self.machine = machine
        self.lineOffset = lineOffset
        self.isRecovering = isRecovering
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

    /// An element's local name, in the spelling the machine knows when it knows the name in another
    /// case (`pubdate` → `pubDate`): worked out once per interned name.
    private mutating func elementName(_ name: UnsafePointer<xmlChar>) -> String {
        if let known = elementNames[UnsafeRawPointer(name)] { return known }
        let string = String(cString: name)
        let canonical = FeedParser.knownElementNames[string.lowercased()] ?? string
        if isInterned(name) { elementNames[UnsafeRawPointer(name)] = canonical }
        return canonical
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
        // Huge mode lifts libxml2's own depth limit: without one, hostile nesting would grow the
        // machine's stack with the document. No feed comes near it.
        if Int(context?.pointee.nameNr ?? 0) >= XMLEventReader.maximumDepth {
            if isRecovering {
                machine.warn(
                    "line \(position.line): stopped reading: elements nested deeper than \(XMLEventReader.maximumDepth)"
                )
            } else {
                machine.error("elements nested deeper than \(XMLEventReader.maximumDepth)", at: position)
            }
            isReadingText = false
            xmlStopParser(context)
            return
        }
        let local = elementName(localName)
        let at = machine.wantsPosition ? position : nil
        let namespaceURI = uri.map { name($0) } ?? ""
        let qualified = qualifiedName(prefix, localName)
        if isRecovering {
            // libxml2 calls this before it pushes the element: its stack holds the ancestors only.
            closeDroppedElements(keeping: Int(context?.pointee.nameNr ?? 0))
            openElements.append(OpenElement(localName: local, namespaceURI: namespaceURI, qualifiedName: qualified))
        }
        let action = machine.startElement(
            local, namespaceURI: namespaceURI, qualifiedName: qualified, attributes: attributeDictionary, at: at)
        isReadingText = machine.isReadingText
        if action == .stop { xmlStopParser(context) }
    }

    mutating func endElement(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?
    ) {
        flushText()
        let local = elementName(localName)
        let namespaceURI = uri.map { name($0) } ?? ""
        if isRecovering {
            // libxml2 ends the element on top of *its* stack; close what it dropped silently first.
            guard
                let match = openElements.lastIndex(where: {
                    $0.localName == local && $0.namespaceURI == namespaceURI
                })
            else { return }
            closeDroppedElements(keeping: match + 1)
            openElements.removeLast()
        }
        machine.endElement(local, namespaceURI: namespaceURI, qualifiedName: qualifiedName(prefix, localName))
        isReadingText = machine.isReadingText
    }

    /// Recovery mode: ends (in the machine) the elements above the first `count` open ones.
    private mutating func closeDroppedElements(keeping count: Int) {
        while openElements.count > count, let open = openElements.popLast() {
            machine.endElement(open.localName, namespaceURI: open.namespaceURI, qualifiedName: open.qualifiedName)
        }
        isReadingText = machine.isReadingText
    }

    mutating func error(code: Int) {
        // libxml2 reports namespace problems (undeclared prefix, relative or invalid namespace URI)
        // through the same channel; they do not make the XML malformed, so parsing continues.
        guard !FeedParser.nonFatalXMLErrorCodes.contains(code) else { return }
        flushText()
        let message = FeedParser.describeXMLError(code: code)
        if isRecovering {
            let line = position.line
            if let index = recoveries.firstIndex(where: { $0.message == message }) {
                recoveries[index].count += 1
            } else {
                recoveries.append((message, line, 1))
            }
            return
        }
        machine.error(message, at: position)
        isReadingText = false
        xmlStopParser(context)
    }

    /// Recovery mode: hands the machine one located warning per kind of error libxml2 read past.
    mutating func finishRecovery() {
        guard isRecovering else { return }
        for recovery in recoveries.sorted(by: { ($0.line, $0.message) < ($1.line, $1.message) }) {
            let times = recovery.count > 1 ? " (\(recovery.count) times)" : ""
            machine.warn("line \(recovery.line): read past malformed XML: \(recovery.message)\(times)")
        }
    }
}
