import FeedsiteKit
import Foundation
import Hummingbird
import ServiceLifecycle

/// Answers every request: the built site from disk (with the live-reload script injected into
/// HTML), plus the three `/_feedsite/` endpoints live reload needs.
///
/// Files are read from disk on every request, so whatever `SiteWriter` last swapped into place
/// is served: a failed rebuild writes nothing, and the last good site stays up.
struct SiteResponder: HTTPResponder {
    typealias Context = PreviewRequestContext

    /// The site folder (`Site/`).
    let root: URL
    let hub: LiveReloadHub
    /// Any `Host` is answered (the server listens on an address other machines reach); otherwise
    /// only loopback names, so a web page cannot read the preview through DNS rebinding.
    var answersAnyHost = false

    /// The largest body a GET or HEAD may carry (read and dropped).
    static let maxIgnoredBody = 1 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        try await answer(request, Pace(eventLoop: context.channel.eventLoop))
    }

    private func answer(_ request: Request, _ pace: Pace) async throws -> Response {
        if let problem = request.headers[HTTP1Rules.badRequest] {
            return Self.text(.badRequest, "400 \(problem)\n", extraHeaders: [.connection: "close"])
        }
        guard answersAnyHost || Self.isLoopback(authority: request.head.authority) else {
            return Self.text(
                .misdirectedRequest,
                "421 this preview server answers only requests for localhost, 127.0.0.1 or [::1]\n",
                extraHeaders: [.connection: "close"])
        }
        guard request.method == .get || request.method == .head else {
            // The connection closes after the answer: a body trickled after it held it open.
            return Self.text(
                .methodNotAllowed, "405 method not allowed: the preview server only reads\n",
                extraHeaders: [.allow: "GET, HEAD", .connection: "close"])
        }
        // A GET or HEAD body means nothing, and is read to its end and dropped before the answer: one
        // left unread waits behind the answer, so the request is still being read while a large
        // file is written back, and Hummingbird closes such a connection once reads have been
        // silent for the header timeout (a 24 MB download was cut off 5 s in). A trickled body is
        // bounded by `RequestDeadline`, a large one here.
        if request.headers[.contentLength] != nil || request.headers[.transferEncoding] != nil {
            var size = 0
            do {
                for try await chunk in request.body {
                    size += chunk.readableBytes
                    guard size <= Self.maxIgnoredBody else {
                        return Self.text(
                            .contentTooLarge,
                            "413 a GET or HEAD request carries no body, and this one is over 1 MB; send it without\n",
                            extraHeaders: [.connection: "close"])
                    }
                }
            } catch {
                return Self.text(
                    .badRequest, "400 the request's body is not framed as its header fields say\n",
                    extraHeaders: [.connection: "close"])
            }
        }
        let path = request.uri.path
        switch path {
        case LiveReload.scriptPath:
            return Self.response(
                .ok, Data(LiveReload.script.utf8), type: "text/javascript; charset=utf-8", request, pace)
        case LiveReload.statusPath:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = (try? encoder.encode(hub.status)) ?? Data("{}".utf8)
            return Self.response(.ok, body, type: "application/json; charset=utf-8", request, pace)
        case LiveReload.eventsPath:
            return events(request)
        default:
            return serveFile(path, query: request.uri.query, request, pace)
        }
    }

    /// The event stream: `hello` now, then one event per rebuild, until the browser goes away or
    /// the server shuts down.
    private func events(_ request: Request) -> Response {
        var headers = Self.commonHeaders
        headers[.contentType] = "text/event-stream; charset=utf-8"
        let full = Self.text(
            .serviceUnavailable, "503 too many live-reload connections\n", extraHeaders: [.retryAfter: "5"])
        // HEAD: GET's status and head (no length: the stream has none), and the response ends.
        guard request.method == .get else {
            guard hub.openStreamCount < LiveReloadHub.maxStreams else { return full }
            return Response(status: .ok, headers: headers, body: ResponseBody { try await $0.finish(nil) })
        }
        guard let stream = hub.subscribe() else { return full }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // Ask browsers to reconnect quickly after a restart of `feedsite serve`.
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                for await event in stream.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: event.text))
                }
                try await writer.finish(nil)
            })
    }

    private func serveFile(_ rawPath: String, query: String?, _ request: Request, _ pace: Pace) -> Response {
        guard let relative = Self.sitePath(rawPath) else { return notFound(request, pace) }
        let fileManager = FileManager.default
        let base = root.standardizedFileURL.resolvingSymlinksInPath()
        var url = relative.isEmpty ? base : base.appendingPathComponent(relative)
        // A symbolic link inside the site must not lead outside it, and nothing about what lies
        // outside (whether it exists, is a folder, has a page) may show in the answer; a path that
        // cannot be resolved (a chain of links longer than PATH_MAX) is not known to be inside.
        func inside(_ url: URL) -> String? {
            guard let resolved = OutputFolder.realPath(url.path), OutputFolder.contains(base.path, resolved) else {
                return nil
            }
            return resolved
        }
        guard var resolved = inside(url) else { return notFound(request, pace) }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
            return notFound(request, pace)
        }
        if isDirectory.boolValue {
            // A folder without a page is not found, rather than redirected to a 404.
            url.appendPathComponent("index.html")
            guard let page = inside(url), fileManager.fileExists(atPath: page) else { return notFound(request, pace) }
            guard rawPath.hasSuffix("/") else {
                // `/feeds/x` → `/feeds/x/`, so the page's relative links resolve from the folder.
                var headers = Self.commonHeaders
                headers[.location] = Self.folderLocation(rawPath) + (query.map { "?\($0)" } ?? "")
                return Response(status: .movedPermanently, headers: headers)
            }
            resolved = page
        } else if rawPath.hasSuffix("/") {
            // `/robots.txt/`: a file is not a folder (its relative links would resolve wrongly).
            return notFound(request, pace)
        }
        guard let attributes = try? fileManager.attributesOfItem(atPath: resolved),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return notFound(request, pace) }
        // Streamed from disk a chunk at a time as the client reads: memory stays bounded however
        // large the file, and the connection's idle timer starts only once the last chunk is
        // handed over (a whole file handed over at once was cut off after 5 s for a slow client).
        // Opened once, so its size is the Content-Length of the bytes sent even when a rebuild
        // replaces the file meanwhile. A page gets the live-reload script on the way (it was
        // added to a copy in memory, held while a client read it: 30 clients that stopped
        // reading a 6 MB page held 218 MB).
        guard let file = OpenFile(path: resolved) else { return notFound(request, pace) }
        var headers = Self.commonHeaders
        headers[.contentType] = ContentType.forFile(named: url.lastPathComponent)
        let injection: LiveReload.Injection?
        if ContentType.isHTML(headers[.contentType] ?? "") {
            let window = LiveReload.Injection.window
            let head = file.read(at: 0, upTo: window).map { Array(buffer: $0) } ?? []
            let tail = file.read(at: max(file.size - window, 0), upTo: window).map { Array(buffer: $0) } ?? []
            injection = LiveReload.Injection(head: head, tail: tail, size: file.size)
        } else {
            injection = nil
        }
        let length = injection?.size ?? file.size
        headers[.contentLength] = "\(length)"
        guard request.method == .get else { return Response(status: .ok, headers: headers) }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: length) { writer in
                var offset = 0
                // The tag goes in once the bytes before it are sent; chunks end there.
                var tagOffset = injection?.offset
                while offset < file.size || tagOffset != nil {
                    if offset == tagOffset, let injection {
                        try await writer.write(ByteBuffer(bytes: injection.tag))
                        tagOffset = nil
                        continue
                    }
                    let end = min(offset + Self.chunkBytes, tagOffset ?? file.size)
                    guard var chunk = file.read(at: offset, upTo: end - offset), chunk.readableBytes > 0 else {
                        // Cut short (truncated meanwhile): the connection ends now, not at a timeout.
                        throw OpenFile.Truncated()
                    }
                    if let injection, let policy = injection.policy, policy < offset + chunk.readableBytes,
                        policy + LiveReload.Injection.closedPolicy.count > offset
                    {
                        var bytes = Array(buffer: chunk)
                        injection.allowScripts(in: &bytes, at: offset)
                        chunk = ByteBuffer(bytes: bytes)
                    }
                    offset += chunk.readableBytes
                    try await pace.write(chunk, to: &writer)
                }
                try await writer.finish(nil)
            })
    }

    /// The size of each read from a file being sent.
    static let chunkBytes = 32 * 1024

    /// What every answer carries: the browser asks again every time (edits show on reload), and
    /// takes each type as declared.
    static var commonHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.xContentTypeOptions] = "nosniff"
        return headers
    }

    /// Whether a `Host` value (`localhost:8000`, `[::1]:8000`) names this machine's loopback; a
    /// request without one (HTTP/1.0) is answered. A value that is not `host[:port]` (a port
    /// that is not digits, `localhost:80@evil.example`, text after `[::1]`) does not.
    static func isLoopback(authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true }
        var host = Substring(authority.lowercased())
        var port: Substring = ""
        var isIPv6 = false
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: end)...]
            guard rest.isEmpty || rest.first == ":" else { return false }
            port = rest.dropFirst()
            host = host[host.index(after: host.startIndex)..<end]
            isIPv6 = true
        } else if let colon = host.firstIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        // Any spelling of ::1 or of 127.0.0.0/8 mapped into IPv6 (`[::ffff:127.0.0.1]`, the URL
        // `serve --host ::ffff:127.0.0.1` prints).
        if isIPv6 {
            var address = in6_addr()
            guard host.count <= 64, inet_pton(AF_INET6, String(host), &address) == 1 else { return false }
            return isLoopback(ipv6: withUnsafeBytes(of: address) { Array($0) })
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host == "localhost" || host.hasSuffix(".localhost")
            || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
                && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// `::1`, or an address of 127.0.0.0/8 mapped into IPv6 (16 bytes, network order).
    private static func isLoopback(ipv6 bytes: [UInt8]) -> Bool {
        let isOne = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let isMapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return isOne || (isMapped && bytes[12] == 127)
    }

    /// Whether the server listens on loopback only (`127.0.0.1`, `localhost`, `::1`, and the other
    /// spellings the resolver reads as loopback when binding: `127.1`, `0:0:0:0:0:0:0:1`,
    /// `::ffff:127.0.0.1`).
    static func isLoopback(listeningOn host: String) -> Bool {
        guard !host.isEmpty else { return false }
        if isLoopback(authority: host.contains(":") ? "[\(host)]" : host) { return true }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return false }
        defer { freeaddrinfo(list) }
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            guard let address = entry.pointee.ai_addr, isLoopback(address: address) else { return false }
            next = entry.pointee.ai_next
        }
        return true
    }

    /// 127.0.0.0/8, `::1`, or 127.0.0.0/8 mapped into IPv6.
    private static func isLoopback(address: UnsafeMutablePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            return UInt32(bigEndian: ipv4) >> 24 == 127
        case AF_INET6:
            return isLoopback(
                ipv6: address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                })
        default:
            return false
        }
    }

    /// The redirect target for a folder requested without its final `/`: a path on this server,
    /// never `//host/…` (a browser reads a leading `//` as another host), so runs of `/` collapse
    /// into one. The path stays as the client spelt it otherwise (still percent-encoded).
    static func folderLocation(_ rawPath: String) -> String {
        var location = "/"
        for segment in rawPath.split(separator: "/", omittingEmptySubsequences: true) {
            location += segment + "/"
        }
        return location
    }

    /// The percent-decoded path below the site root, without leading `/`; nil for anything that
    /// could escape the root (`..`, NUL, backslashes).
    /// Read in bytes, as the file system reads it: as `Character`s, a `/` after U+0600 (which joins
    /// the character after it) is no separator, and `.` plus a combining mark is no `.`.
    static func sitePath(_ rawPath: String) -> String? {
        guard let decoded = rawPath.removingPercentEncoding,
            !decoded.utf8.contains(0), !decoded.utf8.contains(UInt8(ascii: "\\"))
        else { return nil }
        let segments = decoded.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        // Hidden files (`.git/`, `.env`, feedsite's `.feedsite-site` marker) are not the site's
        // pages; `.well-known/` is the one hidden folder sites publish.
        guard
            !segments.contains(where: {
                $0.first == UInt8(ascii: ".") && !$0.elementsEqual(".well-known".utf8)
            })
        else { return nil }
        return segments.map { String(Substring($0)) }.joined(separator: "/")
    }

    private func notFound(_ request: Request, _ pace: Pace) -> Response {
        let hasSite = FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path)
        let page = Self.notFoundPage(hasSite: hasSite, status: hub.status, siteDirectory: root.path)
        return Self.response(
            .notFound, LiveReload.inject(into: Data(page.utf8)), type: "text/html; charset=utf-8", request, pace)
    }

    /// The 404 page. Without a site (the first build failed, or none ran yet) it says why instead
    /// of pointing to a front page that does not exist: the build's error (escaped), or that the
    /// build is running; live reload brings the site up when a build succeeds.
    static func notFoundPage(hasSite: Bool, status: LiveReloadHub.Status, siteDirectory: String) -> String {
        let title: String
        let body: String
        if hasSite {
            title = "Not found"
            body =
                #"<p>There is no page at this address in the site being previewed. <a href="/">Go to the front page</a>.</p>"#
        } else if let error = status.error {
            title = "No site yet: the build failed"
            body = """
                <p>There is no site in \(XMLEscaping.text(siteDirectory)) to preview: the build failed.</p>
                <pre style="white-space: pre-wrap">\(XMLEscaping.text(error))</pre>
                <p>Fix the problem and save the file: this page reloads when a build succeeds.</p>
                """
        } else if status.isBuilding {
            title = "No site yet: building"
            body = "<p>The site is being built; this page reloads when it is ready.</p>"
        } else {
            title = "No site yet"
            body = """
                <p>There is no site in \(XMLEscaping.text(siteDirectory)) to preview. Run <code>feedsite build</code>, \
                or save <code>feeds.yml</code> or a template to build it here.</p>
                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(title) · feedsite serve</title></head>
            <body\(hasSite ? "" : " data-feedsite-no-site")>
            <h1>\(title)</h1>
            \(body)
            </body>
            </html>

            """
    }

    /// A body larger than `chunkBytes` is handed over a chunk at a time as the client reads (a
    /// page handed over whole starts the connection's idle timer at once: a slow client was cut off).
    private static func response(
        _ status: HTTPResponse.Status, _ body: Data, type: String, _ request: Request, _ pace: Pace
    ) -> Response {
        var headers = commonHeaders
        headers[.contentType] = type
        headers[.contentLength] = "\(body.count)"
        guard request.method != .head else { return Response(status: status, headers: headers) }
        guard body.count > chunkBytes else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(contentLength: body.count) { writer in
                var offset = 0
                while offset < body.count {
                    let end = min(offset + chunkBytes, body.count)
                    try await pace.write(ByteBuffer(bytes: body[offset..<end]), to: &writer)
                    offset = end
                }
                try await writer.finish(nil)
            })
    }

    private static func text(
        _ status: HTTPResponse.Status, _ text: String, extraHeaders: HTTPFields = [:]
    ) -> Response {
        var headers = commonHeaders
        for field in extraHeaders { headers[field.name] = field.value }
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
