import FeedsiteShared
import Foundation
import Synchronization

/// The browser side of live reload, and the state it reads.
///
/// Served pages get `<script src="/_feedsite/reload.js"></script>` before `</body>` (a same-origin
/// file: no inline script), and their Content-Security-Policy's `script-src 'none'` (every page
/// but search's, which has `'self'`) becomes `script-src 'self'` so the browser runs it. The
/// script listens to `/_feedsite/events` (server-sent events): `reload` after every successful
/// rebuild, `failed` after a failed one, when it fetches `/_feedsite/status` and shows
/// the error over the page. Nothing of this is ever written into the built site.
enum LiveReload {
    static let scriptPath = "/_feedsite/reload.js"
    static let eventsPath = "/_feedsite/events"
    static let statusPath = "/_feedsite/status"
    static let scriptTag = #"<script src="/_feedsite/reload.js"></script>"#

    /// `html` with the script tag inserted before its last `</body>` (appended when there is none),
    /// and the first `script-src 'none'` (the page's own policy) allowing the site's scripts.
    static func inject(into html: Data) -> Data {
        let bytes = [UInt8](html)
        let injection = Injection(head: bytes, tail: bytes, size: bytes.count)
        var page = Array(bytes[..<injection.offset])
        injection.allowScripts(in: &page, at: 0)
        page += injection.tag
        page += bytes[injection.offset...]
        return Data(page)
    }

    /// Where the script goes into a page of `size` bytes, found in the page's first bytes
    /// (`head`: the policy, in the page's `<head>`) and its last (`tail`: the `</body>`), so a page
    /// of any size is sent from disk a piece at a time with the script added on the way.
    struct Injection: Sendable {
        /// How many bytes of each end of a page are searched.
        static let window = 64 * 1024

        /// Where `script-src 'none'` starts, when `head` has it.
        let policy: Int?
        /// Where the tag goes: before the last `</body` of `tail`, else at the end.
        let offset: Int
        let tag: [UInt8]
        /// The page's size with the tag.
        let size: Int

        static let closedPolicy = Array("script-src 'none'".utf8)
        static let openPolicy = Array("script-src 'self'".utf8)

        /// - Parameter tail: the page's last bytes (the whole page when it is no larger).
        init(head: [UInt8], tail: [UInt8], size: Int) {
            policy = head.withUnsafeBufferPointer { ByteScan.firstIndex(of: Self.closedPolicy, in: $0, from: 0) }
            let needle = Array("</body".utf8)
            var index = tail.count - needle.count
            while index >= 0,
                !zip(tail[index..<index + needle.count], needle).allSatisfy({ ($0 | 0x20) == ($1 | 0x20) })
            {
                index -= 1
            }
            if index >= 0 {
                offset = size - tail.count + index
                tag = Array((LiveReload.scriptTag + "\n").utf8)
            } else {
                offset = size
                tag = Array(("\n" + LiveReload.scriptTag + "\n").utf8)
            }
            self.size = size + tag.count
        }

        /// `bytes`, the page's bytes from `start` on, with the part of the policy they hold
        /// opened (the two spellings have one length).
        func allowScripts(in bytes: inout [UInt8], at start: Int) {
            guard let policy else { return }
            let (from, to) = (max(policy, start), min(policy + Self.closedPolicy.count, start + bytes.count))
            guard from < to else { return }
            for position in from..<to {
                bytes[position - start] = Self.openPolicy[position - policy]
            }
        }
    }

    /// The script. Builds its overlay with DOM calls and `textContent` (error text is never parsed
    /// as HTML) and styles it through CSSOM, which `style-src 'self'` permits.
    static let script = """
        // feedsite serve: live reload. Served only by the preview server, never part of the built site.
        (function () {
          "use strict";
          var overlayID = "feedsite-error-overlay";
          var generation = null;

          function hideError() {
            var overlay = document.getElementById(overlayID);
            if (overlay) { overlay.remove(); }
          }

          function showError(message) {
            var overlay = document.getElementById(overlayID);
            if (!overlay) {
              overlay = document.createElement("div");
              overlay.id = overlayID;
              overlay.setAttribute("role", "alert");
              var s = overlay.style;
              s.position = "fixed"; s.left = "0"; s.right = "0"; s.bottom = "0"; s.zIndex = "2147483647";
              s.maxHeight = "60vh"; s.overflow = "auto"; s.margin = "0"; s.padding = "1em 1.5em";
              s.background = "#2b0b0b"; s.color = "#ffe4e4"; s.borderTop = "4px solid #e5484d";
              s.font = "14px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
              var title = document.createElement("strong");
              title.textContent = "feedsite: the last rebuild failed \\u2014 you are looking at the last good site";
              var details = document.createElement("pre");
              details.style.whiteSpace = "pre-wrap";
              details.style.margin = "0.5em 0";
              var dismiss = document.createElement("button");
              dismiss.type = "button";
              dismiss.textContent = "Dismiss";
              dismiss.addEventListener("click", hideError);
              overlay.append(title, details, dismiss);
              document.body.appendChild(overlay);
            }
            overlay.querySelector("pre").textContent = message;
          }

          // The server's own page when there is no site yet shows the error itself: it is loaded
          // again after each failed build instead of being covered.
          var isNoSitePage = document.body.hasAttribute("data-feedsite-no-site");

          function checkStatus() {
            if (isNoSitePage) { return; }
            fetch("/_feedsite/status", { cache: "no-store" })
              .then(function (response) { return response.json(); })
              .then(function (status) { if (status.error) { showError(status.error); } else { hideError(); } })
              .catch(function () {});
          }

          var retryDelay = 1000;
          function connect() {
            var events = new EventSource("/_feedsite/events");
            // Sent on every (re)connection: a generation that moved on while disconnected means a rebuild was missed.
            events.addEventListener("hello", function (event) {
              retryDelay = 1000;
              if (generation !== null && event.data !== generation) { location.reload(); return; }
              generation = event.data;
              checkStatus();
            });
            events.addEventListener("reload", function () { location.reload(); });
            events.addEventListener("failed", function () { if (isNoSitePage) { location.reload(); } else { checkStatus(); } });
            // A lost connection is retried by the browser; an answer that is no event stream (503:
            // every live-reload place taken) closes the source for good, so it is opened again
            // here, at most every 10 s (the server frees places at its heartbeat).
            events.addEventListener("error", function () {
              if (events.readyState !== EventSource.CLOSED) { return; }
              setTimeout(connect, retryDelay);
              retryDelay = Math.min(retryDelay * 2, 10000);
            });
          }
          connect();
        })();

        """
}

/// What the browsers are told, one server-sent event each.
enum LiveReloadEvent: Sendable, Hashable {
    /// Sent first on every connection, with the current build generation.
    case hello(generation: Int)
    /// A rebuild succeeded: reload the page.
    case reload(generation: Int)
    /// A rebuild failed: fetch the status and show the error.
    case failed
    /// A comment, every `LiveReloadHub.heartbeatInterval`: writing it finds streams whose browser
    /// went away, and frees their place.
    case heartbeat

    /// The event in `text/event-stream` framing.
    var text: String {
        switch self {
        case .hello(let generation): "event: hello\ndata: \(generation)\n\n"
        case .reload(let generation): "event: reload\ndata: \(generation)\n\n"
        case .failed: "event: failed\ndata: \n\n"
        case .heartbeat: ": heartbeat\n\n"
        }
    }
}

/// The state shared by the watcher (which rebuilds) and the request handlers (which report): the
/// build generation, the last error, and the open event streams.
final class LiveReloadHub: Sendable {
    /// What `/_feedsite/status` returns.
    struct Status: Sendable, Hashable, Codable {
        /// Successful builds since the server started.
        var generation = 0
        var isBuilding = false
        /// The last rebuild's error, cleared by the next success.
        var error: String?
    }

    private struct State {
        var status = Status()
        var streams: [Int: AsyncStream<LiveReloadEvent>.Continuation] = [:]
        var nextStreamID = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    var status: Status { state.withLock { $0.status } }

    /// A new event stream that starts with `hello`; it ends when `finishAll` is called or the
    /// consumer stops listening.
    /// Event streams open at once: far more than a person's browser tabs. Each holds a connection
    /// (a file descriptor) until its browser goes away; past this a new one is refused (503).
    static let maxStreams = 256

    /// A stream of events, starting with `hello`; nil when `maxStreams` are open already.
    func subscribe() -> AsyncStream<LiveReloadEvent>? {
        let (stream, continuation) = AsyncStream.makeStream(
            of: LiveReloadEvent.self, bufferingPolicy: .bufferingNewest(16))
        var isFull = false
        let id: Int? = state.withLock { state in
            guard !state.isFinished else { return nil }
            guard state.streams.count < Self.maxStreams else {
                isFull = true
                return nil
            }
            let id = state.nextStreamID
            state.nextStreamID += 1
            state.streams[id] = continuation
            continuation.yield(.hello(generation: state.status.generation))
            return id
        }
        guard let id else {
            continuation.finish()
            return isFull ? nil : stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    var openStreamCount: Int { state.withLock { $0.streams.count } }

    func buildStarted() {
        state.withLock { $0.status.isBuilding = true }
    }

    func buildSucceeded() {
        state.withLock { state in
            state.status.isBuilding = false
            state.status.error = nil
            state.status.generation += 1
            for continuation in state.streams.values {
                continuation.yield(.reload(generation: state.status.generation))
            }
        }
    }

    func buildFailed(_ message: String) {
        state.withLock { state in
            state.status.isBuilding = false
            state.status.error = message
            for continuation in state.streams.values { continuation.yield(.failed) }
        }
    }

    /// Event streams open now.
    var streamCount: Int { state.withLock { $0.streams.count } }

    /// How often open streams get a `heartbeat`.
    static let heartbeatInterval = Duration.seconds(10)

    /// Sends every open stream a `heartbeat`.
    func heartbeat() {
        state.withLock { state in
            for continuation in state.streams.values { continuation.yield(.heartbeat) }
        }
    }

    /// Ends every stream (the server is shutting down) and refuses new ones.
    func finishAll() {
        let streams = state.withLock { state in
            state.isFinished = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for continuation in streams { continuation.finish() }
    }
}
