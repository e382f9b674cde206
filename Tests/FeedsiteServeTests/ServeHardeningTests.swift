#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import FeedsiteKit
    @testable import FeedsiteServe

    @Suite("feedsite serve: it stays on its host and does not wait on half-sent requests")
    struct ServeHardeningTests {
        @Test("a folder's redirect is a path on this server, whatever slashes the request had")
        func redirectsStayOnTheHost() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                // A browser reads `Location: //feeds/` as the host `feeds`.
                for (path, location) in [
                    ("//feeds/alpha", "/feeds/alpha/"), ("///feeds/alpha", "/feeds/alpha/"),
                    ("//feeds//alpha", "/feeds/alpha/"), ("/feeds//alpha", "/feeds/alpha/"),
                    ("/feeds/alpha?page=2", "/feeds/alpha/?page=2"), ("//feeds/alpha?x=//y", "/feeds/alpha/?x=//y"),
                ] {
                    let reply = try await RawConnection.request(
                        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
                    #expect(reply.status == 301, "\(path)")
                    #expect(reply.headers["location"] == location, "\(path)")
                }
                #expect(SiteResponder.folderLocation("//evil.example") == "/evil.example/")
                #expect(SiteResponder.folderLocation("/%2F%2Fevil.example") == "/%2F%2Fevil.example/")
                // A path whose decoded form has a backslash (`/\evil` is `//evil` to a browser) is no folder.
                let backslash = try await RawConnection.request(
                    "GET /%5Cfeeds HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
                #expect(backslash.status == 404)
            }
        }

        @Test("50 half-open connections are closed after the header timeout while a normal request is served")
        func halfOpenConnectionsAreClosed() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            let timeout = Duration.seconds(1)
            try await withPreviewServer(fixture.server(headerTimeout: timeout)) { url in
                let port = try #require(url.port)
                var connections: [RawConnection] = []
                defer { for connection in connections { connection.close() } }
                for index in 0..<50 {
                    let connection = try RawConnection(port: port)
                    // Half a request: a request line and a header, but never the blank line that ends them
                    // (every tenth only the start of the request line).
                    try await connection.send(index % 10 == 0 ? "GET /ind" : "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    connections.append(connection)
                }
                // Served meanwhile.
                let page = try await TestClient.get(url)
                #expect(page.status == 200)
                #expect(page.body.contains("First post"))
                // Each half-open connection is closed by the server: read returns end-of-file.
                let deadline = ContinuousClock.now + .seconds(15)
                for connection in connections {
                    #expect(
                        await connection.waitForClose(until: deadline), "connection \(connection.descriptor) still open"
                    )
                }
                // A slow client that keeps sending a byte at a time is closed too: the clock runs
                // until the header is complete, not from the last byte.
                let slow = try RawConnection(port: port)
                defer { slow.close() }
                var closed = false
                for byte in "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8.map({ String(UnicodeScalar($0)) }) {
                    if (try? await slow.send(byte)) == nil {
                        closed = true
                        break
                    }
                    try await Task.sleep(for: .milliseconds(150))
                    if slow.isClosed() {
                        closed = true
                        break
                    }
                }
                if !closed { closed = await slow.waitForClose(until: ContinuousClock.now + .seconds(5)) }
                #expect(closed)
                // And the server still answers.
                #expect(try await TestClient.get(url).status == 200)
            }
        }

        /// Found by a hostile-request review: `.git/config` and `.env` in the site folder were
        /// served, any `Host` was answered (DNS rebinding), `/robots.txt/` was a page, a folder
        /// without a page redirected to a 404, and 405s and redirects lacked `nosniff`.
        @Test(
            "hidden files, other hosts, files as folders and folders without a page are refused; every answer has nosniff"
        )
        func refusals() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                try Data("token".utf8).write(to: fixture.site.appendingPathComponent(".env"))
                try FileManager.default.createDirectory(
                    at: fixture.site.appendingPathComponent(".git"), withIntermediateDirectories: true)
                try Data("[remote]".utf8).write(to: fixture.site.appendingPathComponent(".git/config"))
                try FileManager.default.createDirectory(
                    at: fixture.site.appendingPathComponent(".well-known"), withIntermediateDirectories: true)
                try Data("contact".utf8).write(to: fixture.site.appendingPathComponent(".well-known/security.txt"))
                func get(
                    _ path: String, host: String = "127.0.0.1", method: String = "GET"
                ) async throws
                    -> RawConnection.Reply
                {
                    try await RawConnection.request("\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: port)
                }
                for path in ["/.env", "/.git/config", "/%2Egit/config", "/.feedsite-site", "/robots.txt/", "/feeds"] {
                    let reply = try await get(path)
                    #expect(reply.status == 404, "\(path): \(reply)")
                }
                #expect(try await get("/.well-known/security.txt").status == 200)
                // Every spelling of a loopback address in brackets: what `--host ::ffff:127.0.0.1`
                // prints (it answered 421 to its own URL).
                for host in [
                    "localhost:\(port)", "127.0.0.1", "[::1]:\(port)", "app.localhost", "[::ffff:127.0.0.1]:\(port)",
                    "[0:0:0:0:0:0:0:1]", "[::FFFF:7F00:1]",
                ] {
                    #expect(try await get("/", host: host).status == 200, "\(host)")
                }
                let rebound = try await get("/", host: "attacker.example")
                #expect(rebound.status == 421)
                // Not `host[:port]` (found in session 24: these were taken for localhost).
                for host in [
                    "[::1].attacker.example", "localhost:x", "[::1", "[::ffff:10.0.0.1]", "[::2]", "[localhost]",
                ] {
                    #expect(try await get("/", host: host).status == 421, "\(host)")
                }
                // Not an authority at all (RFC 9112 §3.2: 400): userinfo, a list, a space, a path.
                for host in ["localhost:80@attacker.example", "localhost, localhost", "local host", "localhost/x"] {
                    let reply = try await get("/", host: host)
                    #expect(reply.status == 400, "\(host)")
                    #expect(reply.headers["connection"] == "close")
                }
                #expect(try await get("/", host: "localhost:").status == 200, "an empty port is allowed (RFC 3986)")
                let post = try await get("/", method: "POST")
                #expect(post.status == 405)
                #expect(post.headers["connection"] == "close")
                for reply in [rebound, post, try await get("/feeds/alpha"), try await get("/nothing")] {
                    #expect(reply.headers["x-content-type-options"] == "nosniff", "\(reply)")
                }
                // HEAD on the event stream: the head alone, and the connection answers the next request.
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                try await connection.send(
                    "HEAD /_feedsite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                )
                var received = ""
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline, !received.contains("Disallow") && !received.contains("User-agent")
                {
                    guard let bytes = connection.read() else { break }
                    if bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                    received += String(decoding: bytes, as: UTF8.self)
                }
                #expect(received.components(separatedBy: "HTTP/1.1 200").count == 3, "\(received)")
            }
        }

        /// Found in session 23: a second `Host` field was ignored (the first one decided, so
        /// `Host: localhost` then `Host: attacker.example` was answered), and an HTTP/1.0 request
        /// (no `Host`, read until the connection closes) waited 5 s for the idle timer.
        @Test(
            "several Host fields are a 400; a whole-URL target is for its host; a request without Host is answered and closed"
        )
        func hostFieldsAndHTTP10() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            // An idle timer far above what answering takes, even on a loaded machine.
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(30))) { url in
                let port = try #require(url.port)
                for hosts in [
                    ["127.0.0.1", "attacker.example"], ["attacker.example", "127.0.0.1"], ["localhost", "localhost"],
                ] {
                    let fields = hosts.map { "Host: \($0)\r\n" }.joined()
                    let reply = try await RawConnection.request("GET / HTTP/1.1\r\n\(fields)\r\n", port: port)
                    #expect(reply.status == 400, "\(hosts): \(reply)")
                    #expect(reply.headers["connection"] == "close")
                }
                // A whole URL as the target is for its host, whatever `Host` says (RFC 9112
                // §3.2.2); found in session 24: its host was not looked at.
                for (target, host, status) in [
                    ("http://attacker.example/robots.txt", "localhost", 421),
                    // Userinfo in a target is an error (RFC 9110 §4.2.4): not an authority, 400.
                    ("HTTP://localhost@attacker.example/robots.txt", "localhost", 400),
                    ("http://localhost:\(port)/robots.txt", "attacker.example", 200),
                    ("https://[::1]/robots.txt?x", "attacker.example", 200),
                ] {
                    let reply = try await RawConnection.request(
                        "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: port)
                    #expect(reply.status == status, "\(target) with Host \(host): \(reply)")
                }
                // Session 29: an `ftp:` or `ws:` URL, `index.html` and `*` were served as paths (200,
                // 404); a whole URL without `Host` was answered, though HTTP/1.1 must send one.
                for (request, status, reason) in [
                    ("GET ftp://localhost/index.html HTTP/1.1\r\nHost: localhost", 400, "neither a path"),
                    ("GET ws://localhost/robots.txt HTTP/1.1\r\nHost: localhost", 400, "neither a path"),
                    // NIO's parser refuses these itself; the answers had no words (session 30),
                    // and an unknown method was a 400, not RFC 9110's 501.
                    ("GET robots.txt HTTP/1.1\r\nHost: localhost", 400, "400 the request's target is not a path"),
                    ("FOO /robots.txt HTTP/1.1\r\nHost: localhost", 501, "501 the request's method is not one"),
                    (
                        "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nBad Field: x", 400,
                        "400 the request line or a header field"
                    ),
                    (
                        "GET /robots.txt HTTP/x\r\nHost: localhost", 400,
                        "400 the request line does not end in HTTP/1.1 or HTTP/1.0 and CR LF"
                    ),
                    // The parser's own words (`paused (swift-http-parser error)`, `unknown
                    // (http_parser error)`) reached the answer (found by a hostile-request review).
                    ("PRI * HTTP/2.0\r\n\r\nSM", 400, "400 the request is"),
                    (
                        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked", 400,
                        "400 the request"
                    ),
                    ("GET * HTTP/1.1\r\nHost: localhost", 400, "neither a path"),
                    ("OPTIONS * HTTP/1.1\r\nHost: localhost", 405, "only reads"),
                    ("GET http://localhost:\(port)/robots.txt HTTP/1.1", 400, "no Host field"),
                    ("GET http://localhost:\(port)/robots.txt HTTP/1.0", 200, "User-agent"),
                ] {
                    let reply = try await RawConnection.request("\(request)\r\n\r\n", port: port, untilClosed: true)
                    #expect(reply.status == status, "\(request): \(reply)")
                    #expect(reason.isEmpty || reply.body.contains(reason), "\(request): \(reply)")
                    #expect(!reply.body.contains("parser"), "\(request): \(reply)")
                }
                // After pipelined requests, the refusal comes last, in its place.
                let pipelined = try await RawConnection.request(
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        + "FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port, untilClosed: true)
                #expect(pipelined.status == 200, "\(pipelined)")
                // The first answer's head is `status`; the HEAD's and the refusal's follow.
                let later = pipelined.body.components(separatedBy: "HTTP/1.1 ").dropFirst().map {
                    $0.components(separatedBy: "\r\n")[0]
                }
                #expect(later == ["200 OK", "501 Not Implemented"], "\(pipelined)")
                #expect(
                    pipelined.body.hasSuffix(
                        "501 the request's method is not one this server knows; the preview server only reads (GET, HEAD)\n"
                    ))
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                try await connection.send("GET /robots.txt HTTP/1.0\r\n\r\n")
                let started = ContinuousClock.now
                var received = ""
                var closed = false
                while ContinuousClock.now < started + .seconds(60) {
                    guard let bytes = connection.read() else {
                        closed = true
                        break
                    }
                    if bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                    received += String(decoding: bytes, as: UTF8.self)
                }
                #expect(closed)
                #expect(received.hasPrefix("HTTP/1.1 200"), "\(received.prefix(200))")
                #expect(received.contains("User-agent"))
                // Closed after the answer, not by the 30 s idle timer.
                #expect(ContinuousClock.now - started < .seconds(20))
            }
        }

        /// Found in session 24: an HTTP/1.0 request with a `Host` (curl -0, scripts that read to
        /// the end) waited 5 s for the idle timer; `Connection: Close` (capitalised) or `TE, close`
        /// kept the connection open; an HTTP/1.0 keep-alive answer did not say `keep-alive`.
        @Test("a connection stays open exactly when HTTP/1 says so (RFC 9112 §9.3)")
        func connectionPersistence() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            // An idle timer far above what answering takes, even on a loaded machine.
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(30))) { url in
                let port = try #require(url.port)
                /// Sends `requests` at once; what arrives until the server closes (nil when it
                /// has not closed within 20 s, far below the idle timer).
                func exchange(_ requests: String) async throws -> String? {
                    let connection = try RawConnection(port: port)
                    defer { connection.close() }
                    try await connection.send(requests)
                    var received = ""
                    let started = ContinuousClock.now
                    while ContinuousClock.now < started + .seconds(20) {
                        guard let bytes = connection.read() else { return received }
                        if bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                        received += String(decoding: bytes, as: UTF8.self)
                    }
                    return nil
                }
                /// Each response's status line and fields (from a status code to the blank line).
                func heads(_ text: String) -> [String] {
                    text.components(separatedBy: "HTTP/1.1 ").dropFirst().filter {
                        $0.prefix(4).dropLast().allSatisfy(\.isNumber) && $0.dropFirst(3).first == " "
                    }.map {
                        String($0.prefix { $0 != "<" }).components(separatedBy: "\r\n\r\n")[0].lowercased() + "\r\n"
                    }
                }
                for closing in [
                    "GET /robots.txt HTTP/1.0\r\nHost: localhost\r\n\r\n",
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nConnection: Close\r\n\r\n",
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nConnection: TE, close\r\n\r\n",
                    // `close` wins over `keep-alive`; the second request is not read.
                    "GET /robots.txt HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive, close\r\n\r\n"
                        + "GET /robots.txt HTTP/1.0\r\nHost: localhost\r\n\r\n",
                    // A request with a body: answered once, then closed.
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc"
                        + "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n",
                ] {
                    let received = try await exchange(closing)
                    let text = try #require(received, "not closed after \(closing.debugDescription)")
                    #expect(heads(text).count == 1, "\(text.prefix(300))")
                    #expect(heads(text).first?.hasPrefix("200") == true)
                    #expect(heads(text).first?.contains("\r\nconnection: close\r\n") == true)
                    #expect(text.contains("User-agent"))
                }
                // Answered 400 and closed: HTTP/1.1 without Host (RFC 9112 §3.2), a body whose
                // end cannot be known (§6.3).
                for refused in [
                    "GET /robots.txt HTTP/1.1\r\n\r\n",
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\nabc",
                    // A broken chunked body, now read (it was answered 200, then a second time with a 400).
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
                ] {
                    let received = try await exchange(refused)
                    let text = try #require(received, "not closed after \(refused.debugDescription)")
                    #expect(heads(text).count == 1, "\(text.prefix(300))")
                    #expect(heads(text).first?.hasPrefix("400") == true, "\(text.prefix(300))")
                    #expect(heads(text).first?.contains("\r\nconnection: close\r\n") == true)
                }
                // The event stream to an HTTP/1.0 client: not chunked (it cannot read that), the
                // body ending with the connection.
                let connection10 = try RawConnection(port: port)
                defer { connection10.close() }
                try await connection10.send("GET /_feedsite/events HTTP/1.0\r\nHost: localhost\r\n\r\n")
                var stream = ""
                let streamStart = ContinuousClock.now
                while !stream.contains("event: hello"), ContinuousClock.now < streamStart + .seconds(20) {
                    let bytes = try #require(connection10.read(), "the event stream closed: \(stream)")
                    if bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                    stream += String(decoding: bytes, as: UTF8.self)
                }
                #expect(stream.hasPrefix("HTTP/1.0 200"), "\(stream)")
                #expect(!stream.lowercased().contains("transfer-encoding"), "\(stream)")
                #expect(stream.contains("\r\n\r\nretry: 1000\n\nevent: hello\n"), "\(stream)")
                // HEAD of the stream: GET's head, without a length GET would not have.
                let head = try await RawConnection.request(
                    "HEAD /_feedsite/events HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
                #expect(head.status == 200)
                #expect(head.headers["content-length"] == nil, "\(head)")
                // Pipelined: the HTTP/1.1 request is answered and the connection stays for the
                // HTTP/1.0 one, whose answer closes it (the third is not read).
                let pipelined = try await exchange(
                    "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        + "GET /no-such-page HTTP/1.0\r\nHost: localhost\r\n\r\n"
                        + "GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let answers = heads(try #require(pipelined, "the pipelined HTTP/1.0 request did not close"))
                #expect(answers.count == 2, "\(answers)")
                #expect(answers.first?.hasPrefix("200") == true)
                #expect(answers.first?.contains("connection:") == false)
                #expect(answers.last?.hasPrefix("404") == true)
                #expect(answers.last?.contains("\r\nconnection: close\r\n") == true)
                // HTTP/1.0 keep-alive: told so, and the connection takes a second request.
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                var received = ""
                for round in 1...2 {
                    try await connection.send(
                        "GET /robots.txt HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
                    let started = ContinuousClock.now
                    while received.components(separatedBy: "User-agent").count <= round,
                        ContinuousClock.now < started + .seconds(20)
                    {
                        let bytes = try #require(connection.read(), "closed after keep-alive answer \(round)")
                        if bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                        received += String(decoding: bytes, as: UTF8.self)
                    }
                }
                #expect(heads(received).count == 2)
                #expect(heads(received).allSatisfy { $0.contains("\r\nconnection: keep-alive\r\n") }, "\(received)")
                try await Task.sleep(for: .milliseconds(300))
                #expect(!connection.isClosed())
            }
        }

        /// Found by a hostile-request review: a request body trickled a byte at a time kept its
        /// connection open for ever (each byte restarted the idle timer), and a 405 only asked the
        /// client to close.
        @Test("a request body must arrive within the header timeout, and a 405 closes its connection")
        func trickledBodyIsCut() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(1))) { url in
                let port = try #require(url.port)
                for method in ["GET", "POST"] {
                    let connection = try RawConnection(port: port)
                    defer { connection.close() }
                    try await connection.send(
                        "\(method) /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n")
                    let started = ContinuousClock.now
                    // A byte every 300 ms: never silent for the whole second.
                    var closed = false
                    while !closed, ContinuousClock.now < started + .seconds(15) {
                        _ = try? await connection.send("a")
                        closed = await connection.waitForClose(until: .now + .milliseconds(300))
                    }
                    #expect(closed, "\(method): the connection is still open")
                    #expect(ContinuousClock.now - started < .seconds(10), "\(method)")
                }
                // A request without a body is unaffected.
                #expect(try await TestClient.get(url).status == 200)
            }
            // A 405 without a body: the server closes the connection after the answer, long before
            // its idle time (60 s here) would.
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(60))) { url in
                let port = try #require(url.port)
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                try await connection.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                #expect(await connection.waitForClose(until: .now + .seconds(20)))
            }
        }

        @Test("a link whose target cannot be resolved (longer than PATH_MAX) is not served")
        func unresolvableLink() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            let outside = fixture.site.deletingLastPathComponent().appendingPathComponent("outside")
            defer {
                // GNU rm removes a tree deeper than PATH_MAX; FileManager does not.
                let remove = Process()
                remove.executableURL = URL(fileURLWithPath: "/bin/rm")
                remove.arguments = ["-rf", outside.path]
                try? remove.run()
                remove.waitUntilExit()
            }
            // 18 folders of 244 characters: a real path of about 4.4 KB, reached through a link
            // inside the site and a relative link halfway (each link itself short enough). Made
            // through folder descriptors: no path that long can be named, and the working
            // directory is the whole test process's.
            let names = (0..<18).map { "d\($0)" + String(repeating: "x", count: 240) }
            let firstHalf = names[..<9].joined(separator: "/")
            let secondHalf = names[9...].joined(separator: "/")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            var folder = open(outside.path, O_RDONLY | O_DIRECTORY)
            for (index, name) in names.enumerated() {
                #expect(mkdirat(folder, name, 0o755) == 0)
                let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
                if index == 8 { #expect(symlinkat(secondHalf, next, "hop") == 0) }
                _ = Glibc.close(folder)
                folder = next
            }
            let file = openat(folder, "secret.txt", O_CREAT | O_WRONLY, 0o644)
            _ = Glibc.write(file, "OUTSIDE", 7)
            _ = Glibc.close(file)
            _ = Glibc.close(folder)
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                #expect(symlink(outside.path + "/" + firstHalf, fixture.site.path + "/dl") == 0)
                #expect(OutputFolder.realPath(fixture.site.path + "/dl/hop/secret.txt") == nil)
                let reply = try await RawConnection.request(
                    "GET /dl/hop/secret.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
                #expect(reply.status == 404)
            }
        }

        @Test("a link out of the site says nothing of what is there: no redirect, no page, no file")
        func linkOutOfTheSite() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            let outside = fixture.site.deletingLastPathComponent().appendingPathComponent("outside-folder")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: outside) }
            try Data("OUTSIDE PAGE".utf8).write(to: outside.appendingPathComponent("index.html"))
            try Data("OUTSIDE FILE".utf8).write(to: outside.appendingPathComponent("secret.txt"))
            let inside = fixture.site.appendingPathComponent("inside")
            try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
            try Data("INSIDE".utf8).write(to: outside.appendingPathComponent("page.html"))
            #expect(symlink(outside.path, fixture.site.path + "/out") == 0)
            #expect(symlink(outside.path + "/page.html", inside.path + "/index.html") == 0)
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                // Before, `/out` answered 301 to `/out/`: the folder outside and its page exist.
                for path in [
                    "/out", "/out/", "/out/secret.txt", "/out/index.html", "/out/missing", "/inside", "/inside/",
                ] {
                    let reply = try await TestClient.get(try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
                    #expect(reply.status == 404, "\(path): \(reply.status)")
                    #expect(!reply.body.contains("OUTSIDE") && !reply.body.contains("INSIDE"), "\(path)")
                }
            }
        }

        /// `café` (NFC) and `cafe` + U+0301 (NFD) are one string to Swift's `==` and two folders to
        /// the file system: a link from a site under the one into the other was served as inside.
        @Test("a link into a folder whose name only looks like the site's (another Unicode form) is not served")
        func linkIntoALookalikeFolder() async throws {
            let nfc = "feedsite-serve-caf\u{E9}-"
            let fixture = try ServeFixture(name: nfc)
            defer { fixture.remove() }
            let lookalike = fixture.work.path.replacingOccurrences(of: "\u{E9}", with: "e\u{301}")
            #expect(!lookalike.utf8.elementsEqual(fixture.work.path.utf8))
            try FileManager.default.createDirectory(atPath: lookalike + "/Site", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: lookalike) }
            try Data("OUTSIDE".utf8).write(to: URL(fileURLWithPath: lookalike + "/Site/secret.txt"))
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                #expect(symlink(lookalike + "/Site", fixture.site.path + "/twin") == 0)
                #expect(symlink(lookalike + "/Site/secret.txt", fixture.site.path + "/secret.txt") == 0)
                for path in ["/twin/secret.txt", "/secret.txt", "/twin/"] {
                    let reply = try await TestClient.get(try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
                    #expect(reply.status == 404, "\(path): \(reply.status)")
                    #expect(!reply.body.contains("OUTSIDE"), "\(path)")
                }
            }
        }

        @Test(
            "every loopback spelling the resolver binds to keeps the Host check",
            arguments: [
                ("127.0.0.1", true), ("127.1", true), ("localhost", true), ("::1", true), ("0:0:0:0:0:0:0:1", true),
                ("::ffff:127.0.0.1", true), ("127.255.0.9", true), ("0.0.0.0", false), ("::", false),
                ("192.168.1.2", false), ("::ffff:10.0.0.1", false), ("", false),
            ])
        func loopbackSpellings(host: String, isLoopback: Bool) {
            #expect(SiteResponder.isLoopback(listeningOn: host) == isLoopback)
        }

        /// Writes a sparse file of `size` bytes into the fixture's site and asks for it.
        /// - Parameter body: a body sent with the `GET`, all at once (none by default).
        static func requestSparseFile(
            _ name: String, size: Int, in fixture: ServeFixture, port: Int, body: String = ""
        ) async throws
            -> RawConnection
        {
            let file = fixture.site.appendingPathComponent(name)
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            let connection = try RawConnection(port: port)
            let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
            try await connection.send("GET /\(name) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(length)\r\n" + body)
            return connection
        }

        /// A 24 MB file was handed to NIO whole; the 5 s idle timer then ran while a slow client
        /// was still reading, and cut the download off. Streamed, the timer still started when the
        /// last chunk was handed over, with a megabyte of it in NIO's buffers: a client reading at
        /// 130 KB/s lost it. The close now waits for what was handed over to be written.
        @Test("a large file reaches a client that pauses past the idle time, then reads slowly, whole")
        func largeFileToSlowClient() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            // The idle time is 1 s: the client waits 2 s before reading (a file handed over whole
            // is cut off by then), then reads 64 KB every 250 ms (256 KB/s), so the last chunks
            // are handed over seconds before they are all written.
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(1))) { url in
                let port = try #require(url.port)
                let size = 6 << 20
                let connection = try await Self.requestSparseFile("big.bin", size: size, in: fixture, port: port)
                defer { connection.close() }
                try await Task.sleep(for: .seconds(2))
                var received = 0
                var head: [UInt8] = []
                func headLength() -> Int? {
                    let text = String(decoding: head, as: UTF8.self)
                    return text.range(of: "\r\n\r\n").map {
                        text.utf8.distance(from: text.startIndex, to: $0.upperBound)
                    }
                }
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(300) {
                    guard let bytes = connection.read() else { break }
                    if head.count < 4096 { head += bytes.prefix(4096) }
                    received += bytes.count
                    // Until the body is whole: the head's bytes count in `received` too.
                    if let length = headLength(), received - length >= size { break }
                    try await Task.sleep(for: .milliseconds(bytes.isEmpty ? 1 : 250))
                }
                let headText = String(decoding: head, as: UTF8.self)
                let headLength = headLength() ?? 0
                #expect(headText.hasPrefix("HTTP/1.1 200"))
                #expect(headText.lowercased().contains("content-length: \(size)"))
                #expect(received - headLength == size)
            }
        }

        /// A `GET` carrying a body, all of it sent at once: the server does not read the body
        /// while it writes a large file back, so the request's end had not come 5 s (here 1 s) after
        /// its head, and the download was cut off there. The clock stops once the answer begins.
        @Test("a large file asked for with a body sent at once reaches a slow client whole")
        func largeFileAskedForWithABody() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(1))) { url in
                let port = try #require(url.port)
                let size = 3 << 20
                let connection = try await Self.requestSparseFile(
                    "big.bin", size: size, in: fixture, port: port, body: String(repeating: "a", count: 400_000))
                defer { connection.close() }
                // 64 KB every 100 ms: about 5 s for the file, five times the header timeout.
                var received: [UInt8] = []
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(120) {
                    guard let bytes = connection.read() else { break }
                    received += bytes
                    if let end = received.firstRange(of: Array("\r\n\r\n".utf8)),
                        received.count - end.upperBound >= size
                    {
                        break
                    }
                    try await Task.sleep(for: .milliseconds(bytes.isEmpty ? 5 : 100))
                }
                let end = try #require(received.firstRange(of: Array("\r\n\r\n".utf8)))
                #expect(String(decoding: received[..<end.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
                #expect(received.count - end.upperBound == size)
                #expect(ContinuousClock.now - start > .seconds(2))

                // A body over 1 MB is not read to its end: refused, in words, and the connection closes.
                let large = try RawConnection(port: port)
                defer { large.close() }
                try await large.send(
                    "GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2000000\r\n\r\n"
                        + String(repeating: "a", count: 1_100_000))
                var answer: [UInt8] = []
                let asked = ContinuousClock.now
                while ContinuousClock.now - asked < .seconds(20), let bytes = large.read() {
                    answer += bytes
                    if bytes.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                }
                let text = String(decoding: answer, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
                #expect(text.contains("413 a GET or HEAD request carries no body, and this one is over 1 MB"))
            }
        }

        /// Hummingbird's idle timer never interrupts a response: a client that asked for a large
        /// file and stopped reading held its connection (one of a bounded number) for ever.
        @Test("a client that stops reading a large file is cut off once nothing has moved for the stall time")
        func stalledDownloadIsClosed() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server(headerTimeout: .seconds(1), stallTimeout: .seconds(3))) { url in
                let port = try #require(url.port)
                // More than the two sockets' buffers hold (a few MB each on loopback).
                let size = 64 << 20
                let connection = try await Self.requestSparseFile("huge.bin", size: size, in: fixture, port: port)
                defer { connection.close() }
                try await Task.sleep(for: .seconds(10))
                // Read what was sent before the cut, at full speed: the end of the file never comes.
                var received = 0
                var closed = false
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .seconds(60) {
                    guard let bytes = connection.read() else {
                        closed = true
                        break
                    }
                    received += bytes.count
                    if bytes.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
                }
                #expect(closed)
                #expect(received > 0)
                #expect(received < size)
            }
        }

        /// A stream waited for the next rebuild however long ago its browser left, so after 256
        /// page views without a rebuild live reload was refused for good.
        @Test("an event stream whose browser went away is ended by the next heartbeat, freeing its place")
        func eventStreamsAreFreed() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            let server = fixture.server()
            try await withPreviewServer(server) { url in
                let port = try #require(url.port)
                var connections: [RawConnection] = []
                for _ in 0..<3 {
                    let connection = try RawConnection(port: port)
                    try await connection.send("GET /_feedsite/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    connections.append(connection)
                }
                let deadline = ContinuousClock.now + .seconds(60)
                while server.hub.streamCount < 3, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(server.hub.streamCount == 3)
                connections.forEach { $0.close() }
                while server.hub.streamCount > 0, ContinuousClock.now < deadline {
                    server.hub.heartbeat()
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(server.hub.streamCount == 0)
            }
        }

        /// Found in session 25: the responder's task read a file faster than the event loop
        /// queued its chunks, so the writer's backpressure came too late and whole files queued in
        /// memory (120 clients that stopped reading a 24 MB file: 1.9 GB). `Pace` waits for the
        /// event loop after each chunk.
        @Test("120 clients that ask for a 24 MB file and stop reading hold megabytes, not the file each")
        func stalledClientsHoldLittle() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            @Sendable func residentBytes() -> Int {
                let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
                return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
            }
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                var connections = [try await Self.requestSparseFile("big.bin", size: 24 << 20, in: fixture, port: port)]
                let before = residentBytes()
                for _ in 1..<120 {
                    let connection = try RawConnection(port: port)
                    try await connection.send("GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    connections.append(connection)
                }
                try await Task.sleep(for: .seconds(3))
                let grown = residentBytes() - before
                connections.forEach { $0.close() }
                // The kernel's socket buffers are not the process's; each client holds about a
                // chunk and NIO's write buffer here (a few MB in all), the whole file without pacing.
                #expect(grown < 400 << 20, "grew \(grown >> 20) MB")
            }
        }

        /// With a download in progress, Ctrl-C waited for it, and a client that stopped reading
        /// held the server forever.
        @Test("a graceful shutdown ends a download its client stopped reading")
        func shutdownDuringStalledDownload() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            // The shutdown starts when the body returns: only that is timed (a loaded machine
            // takes long to start the server; without the 2 s grace the wait is unbounded, and
            // `withPreviewServer` gives up after `shutdownLimit`).
            let (connection, shutdownStart) = try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                let file = fixture.site.appendingPathComponent("big.bin")
                #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
                let handle = try FileHandle(forWritingTo: file)
                try handle.truncate(atOffset: 64 << 20)
                try handle.close()
                let connection = try RawConnection(port: port)
                try await connection.send("GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await Task.sleep(for: .milliseconds(500))
                return (connection, ContinuousClock.now)
            }
            connection.close()
            #expect(ContinuousClock.now - shutdownStart < .seconds(120))
        }

        @Test("an over-long request line or header closes the connection without buffering it")
        func requestSizeIsBounded() async throws {
            let fixture = try ServeFixture()
            defer { fixture.remove() }
            try await withPreviewServer(fixture.server()) { url in
                let port = try #require(url.port)
                let longPath = "/" + String(repeating: "a", count: 64 * 1024)
                let longLine = try await RawConnection.request(
                    "GET \(longPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
                #expect(longLine.status == nil || (400..<500).contains(longLine.status ?? 0), "\(longLine)")
                let manyHeaders = (0..<2_000).map { "X-Header-\($0): \(String(repeating: "v", count: 40))\r\n" }
                    .joined()
                let big = try await RawConnection.request(
                    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(manyHeaders)\r\n", port: port, untilClosed: true)
                // 431 with words when the answer arrives (the client may have been reset first).
                #expect(big.status == nil || big.status == 431, "\(big)")
                #expect(
                    big.status == nil || big.body.contains("431 the request is longer than this server reads"), "\(big)"
                )
                // Small enough to be read whole, so the answer always arrives: 101 fields, and
                // one field of 10 KB.
                for fields in [
                    (0..<101).map { "X-\($0): v\r\n" }.joined(),
                    "X-Long: \(String(repeating: "v", count: 10 * 1024))\r\n",
                ] {
                    let refused = try await RawConnection.request(
                        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n", port: port, untilClosed: true)
                    #expect(refused.status == 431, "\(refused)")
                    #expect(refused.headers["connection"] == "close", "\(refused)")
                    #expect(refused.body.hasPrefix("431 the request is longer than this server reads: "), "\(refused)")
                }
                // An ordinary request with ordinary headers is unaffected.
                let normal = try await RawConnection.request(
                    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: \(String(repeating: "m", count: 2_000))\r\n\r\n",
                    port: port)
                #expect(normal.status == 200)
            }
        }
    }

    /// A plain TCP connection to the server, for requests no HTTP client would send. Non-blocking:
    /// every wait is a `Task.sleep`, so a test never holds one of the few threads the server's
    /// own tasks run on (on a loaded 2-core machine, blocking reads starved the server).
    final class RawConnection: Sendable {
        let descriptor: Int32

        init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw ServeTestError("socket() failed") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            // A connection to the loopback address is accepted by the kernel at once.
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0, fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0 else {
                _ = Glibc.close(descriptor)
                throw ServeTestError("connect() failed: \(errno)")
            }
        }

        /// Sends all of `text`, waiting while the socket's buffer is full.
        func send(_ text: String) async throws {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes { buffer in
                    Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    try await Task.sleep(for: .milliseconds(10))
                    continue
                }
                guard written > 0 else { throw ServeTestError("send() failed: \(errno)") }
                sent += written
            }
        }

        /// What has arrived: empty when nothing has yet, nil at end-of-file or reset.
        func read() -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
            return count > 0 ? Array(buffer[..<count]) : nil
        }

        /// Whether the server has closed its side (end-of-file or reset), without waiting.
        func isClosed() -> Bool {
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK))
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
            return count <= 0
        }

        /// Waits until the server closes the connection or `deadline` passes, reading and
        /// discarding whatever it sends meanwhile.
        func waitForClose(until deadline: ContinuousClock.Instant) async -> Bool {
            while ContinuousClock.now < deadline {
                guard let bytes = read() else { return true }
                if bytes.isEmpty { try? await Task.sleep(for: .milliseconds(20)) }
            }
            return false
        }

        func close() {
            _ = Glibc.close(descriptor)
        }

        struct Reply: CustomStringConvertible {
            var status: Int?
            var headers: [String: String]
            /// What came after the head (all of it with `untilClosed`).
            var body = ""
            var description: String {
                "status \(status.map(String.init) ?? "none"), headers \(headers), body \(body.prefix(200).debugDescription)"
            }
        }

        /// Sends `request` on a new connection and reads the response head (nil status when the
        /// server closed the connection without answering), or with `untilClosed` everything the
        /// server sends before it closes the connection.
        static func request(_ request: String, port: Int, untilClosed: Bool = false) async throws -> Reply {
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            // The server may close the connection before reading all of an over-long request.
            try? await connection.send(request)
            var received: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                guard let bytes = connection.read() else { break }
                if bytes.isEmpty {
                    try await Task.sleep(for: .milliseconds(20))
                    continue
                }
                received += bytes
                if !untilClosed, String(decoding: received, as: UTF8.self).contains("\r\n\r\n") { break }
            }
            let parts = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n\r\n")
            let head = parts[0]
            var lines = head.components(separatedBy: "\r\n")
            guard !lines.isEmpty, lines[0].hasPrefix("HTTP/1.1 ") else { return Reply(status: nil, headers: [:]) }
            let status = Int(lines.removeFirst().split(separator: " ")[1])
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            return Reply(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
#endif
