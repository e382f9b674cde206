#!/usr/bin/env python3
"""Helper for scripts/browser-proof.sh (Python 3 standard library only).

Subcommands:
  serve   the one local HTTP server: feeds, the two site copies, and the /pwned detector
  feeds   the hostile corpus as RSS/Atom feeds on that server, and a feeds.yml listing them
  copy    the site without its CSP meta tag, plus the positive-control pages
  browse  opens pages in headless Chromium and records what each page requested
  control checks the positive control after its pages were opened
  report  reads the logs, prints the summary, exits 1 if any vector's beacon was requested

Why the DevTools protocol rather than `chromium --headless --dump-dom URL` per page: the proof
opens some 2,600 pages, and starting a browser for each takes about a second, so one browser
driven over --remote-debugging-pipe (NUL-terminated JSON on fds 3 and 4; no WebSocket client
needed) with a few tabs does the same in a few minutes. Each page is opened by a real top-level
navigation and left until its load event has fired and the network has been idle for a moment.
"""

import argparse
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import xml.parsers.expat
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# The positive control (an unsanitised page in the copy without CSP) must reach the detector:
# an image's onerror, an inline script, an autofocus handler (the interaction-free trigger) and a
# mouseover handler (the pointer sweep).
CONTROL_IDS = {"control", "control2", "control3", "control4"}
# The same page in the copy that keeps the CSP: none of these may reach the detector.
CSP_CONTROL_IDS = {"csp-control", "csp-control2", "csp-control3", "csp-control4"}
CSP_META = re.compile(r"<meta\s+http-equiv\s*=\s*[\"']?Content-Security-Policy[\"']?[^>]*>\s*", re.I)


# MARK: - The corpus


def unescape(text):
    """`\\t \\n \\r \\\\ \\u{HEX}`, as documented in vectors.txt."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = text[i + 1]
        if n in "tnr\\":
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[n])
            i += 2
        elif n == "u" and text[i + 2] == "{":
            close = text.index("}", i)
            out.append(chr(int(text[i + 3 : close], 16)))
            i = close + 1
        else:
            raise ValueError(f"bad escape in {text!r}")
    return "".join(out)


def load_vectors(path):
    vectors = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if not line or line.startswith("#"):
                continue
            mode, payload = line.split("\t", 1)
            if mode not in ("drop", "text"):
                raise ValueError(f"bad mode in {line!r}")
            vectors.append((len(vectors) + 1, mode, unescape(payload)))
    return vectors


# MARK: - Feeds


def xml_forbidden(text):
    """Characters XML 1.0 cannot carry at all (feedsite's repair pass removes them)."""
    return any((ord(c) < 0x20 and c not in "\t\n\r") or c in "\ufffe\uffff" for c in text)


def fits_xhtml(html, well_formed=True):
    """Well-formed XML with no `&` that starts no XML reference: fits Atom type="xhtml" as is
    (`HostileCorpus.fitsXHTML` in the Swift tests, which checks all but well-formedness)."""
    if xml_forbidden(html):
        return False
    if re.search(r"&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)", html):
        return False
    if not well_formed:
        return True
    parser = xml.parsers.expat.ParserCreate()
    try:
        parser.Parse(f'<div xmlns="http://www.w3.org/1999/xhtml">{html}</div>', True)
    except xml.parsers.expat.ExpatError:
        return False
    return True


def escaped(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cdata(text):
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


EMBEDDINGS = ("rss-escaped", "rss-cdata", "atom-html", "atom-xhtml")


def feed_document(embedding, items, port):
    """One feed holding `items` [(id, html)]; item links (the base for relative URLs) point at
    the local server so relative images stay local."""
    parts = []
    for vid, html in items:
        link = f"http://127.0.0.1:{port}/post/{embedding}/{vid}.html"
        # Distinct, past dates: newest vector first, nothing clamped.
        day, minute = divmod(vid, 60 * 24)
        hour, minute = divmod(minute, 60)
        iso = f"2024-01-{1 + day:02d}T{hour:02d}:{minute:02d}:00Z"
        rfc = f"{['Mon', 'Tue', 'Wed'][day]}, {1 + day:02d} Jan 2024 {hour:02d}:{minute:02d}:00 GMT"
        if embedding.startswith("rss"):
            body = escaped(html) if embedding == "rss-escaped" else cdata(html)
            parts.append(
                f"<item><title>vector {vid}</title><link>{link}</link>"
                f'<guid isPermaLink="false">urn:feedsite-proof:{embedding}:{vid}</guid>'
                f"<pubDate>{rfc}</pubDate><description>{body}</description></item>"
            )
        else:
            if embedding == "atom-html":
                content = f'<content type="html">{escaped(html)}</content>'
            else:
                content = f'<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">{html}</div></content>'
            parts.append(
                f"<entry><title>vector {vid}</title><id>urn:feedsite-proof:{embedding}:{vid}</id>"
                f'<updated>{iso}</updated><link href="{link}"/>{content}</entry>'
            )
    if embedding.startswith("rss"):
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Hostile</title>'
            f"<link>http://127.0.0.1:{port}/post/</link><description>hostile corpus</description>"
            + "".join(parts)
            + "</channel></rss>\n"
        )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Hostile</title>'
        f"<id>urn:feedsite-proof:{embedding}</id><updated>2024-01-01T00:00:00Z</updated>"
        + "".join(parts)
        + "</feed>\n"
    )


def cmd_feeds(args):
    vectors = load_vectors(args.vectors)
    port = args.port
    os.makedirs(os.path.join(args.www, "feeds"), exist_ok=True)
    feeds, expected = [], {}

    def add(name, chunk, may_reject):
        with open(os.path.join(args.www, "feeds", name + ".xml"), "w", encoding="utf-8", newline="") as f:
            f.write(feed_document(embedding, chunk, port))
        feeds.append(name)
        expected[name] = {"ids": [vid for vid, _ in chunk], "may_reject": may_reject}

    for embedding in EMBEDDINGS:
        chosen = [(vid, html.replace("PORTPLACEHOLDER", str(port))) for vid, _, html in vectors]
        # Vectors with characters XML forbids go in a feed of their own: feedsite may repair or
        # reject that document (both safe), and a rejection must not take other vectors with it.
        forbidden = [item for item in chosen if xml_forbidden(item[1])]
        chosen = [item for item in chosen if not xml_forbidden(item[1])]
        repairable = []
        if embedding == "atom-xhtml":
            # Well-formed vectors go in as they are; the others (that start no stray `&`) each get
            # a feed of their own, which feedsite's repair pass may rescue (as the Swift tests do).
            repairable = [
                item for item in chosen if fits_xhtml(item[1], well_formed=False) and not fits_xhtml(item[1])
            ]
            chosen = [item for item in chosen if fits_xhtml(item[1])]
            forbidden = []
        for n in range(0, len(chosen), args.chunk):
            add(f"{embedding}-{n // args.chunk + 1}", chosen[n : n + args.chunk], False)
        if forbidden:
            add(f"{embedding}-controlchars", forbidden, True)
        for item in repairable:
            add(f"{embedding}-repair-{item[0]}", [item], True)
    with open(args.config, "w", encoding="utf-8") as f:
        f.write("# Written by scripts/browser-proof.sh\n")
        f.write("title: feedsite browser proof\n")
        f.write(f"base_url: http://127.0.0.1:{port}/site/\n")
        for line in args.extra or []:
            f.write(line + "\n")
        f.write("feeds:\n")
        for name in feeds:
            f.write(f"  - url: http://127.0.0.1:{port}/feeds/{name}.xml\n    name: {name}\n")
    with open(args.expected, "w", encoding="utf-8") as f:
        json.dump(expected, f)
    xhtml = sum(len(v["ids"]) for k, v in expected.items() if k.startswith("atom-xhtml") and not v["may_reject"])
    repair = sum(1 for k in expected if k.startswith("atom-xhtml-repair-"))
    print(
        f"{len(vectors)} vectors → {len(feeds)} feeds, {sum(len(v['ids']) for v in expected.values())} items "
        f"(RSS escaped, RSS CDATA, Atom html: {len(vectors)} each; Atom xhtml: {xhtml} well-formed, "
        f"plus {repair} single-item feeds of ill-formed markup that feedsite may repair or reject)"
    )


# MARK: - Server


def cmd_serve(args):
    log_lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8", buffering=1)

    class Handler(SimpleHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def __init__(self, *a, **kw):
            super().__init__(*a, directory=args.root, **kw)

        def log_message(self, *a):
            pass

        def record(self, kind):
            entry = {
                "time": time.time(),
                "kind": kind,
                "method": self.command,
                "path": self.path,
                "referer": self.headers.get("Referer", ""),
            }
            with log_lock:
                log.write(json.dumps(entry) + "\n")

        def route(self):
            path = urlsplit(self.path).path
            if path == "/pwned" or path.startswith("/pwned/") or "/pwned" in path:
                self.record("pwned")
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if self.command in ("GET", "HEAD") and path.startswith(("/feeds/", "/site/", "/site-nocsp/")):
                target = self.translate_path(self.path)
                kind = "feed" if path.startswith("/feeds/") else "site"
                if os.path.exists(target):
                    if kind == "feed":
                        self.record(kind)
                    return super().do_GET() if self.command == "GET" else super().do_HEAD()
                self.record("site-missing")
            else:
                self.record("other")
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = route

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


# MARK: - Site copies and controls


def control_page(port, ids, csp_meta=""):
    a, b, c, d = ids
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
{csp_meta}<title>browser-proof positive control</title>
</head>
<body>
<p>Positive control written by scripts/browser-proof.sh, not by feedsite.</p>
<img src=x onerror="fetch('http://127.0.0.1:{port}/pwned?id={a}')">
<script>fetch('http://127.0.0.1:{port}/pwned?id={b}')</script>
<input autofocus onfocus="fetch('http://127.0.0.1:{port}/pwned?id={c}')">
<div style="position:fixed;inset:0" onmouseover="fetch('http://127.0.0.1:{port}/pwned?id={d}')"></div>
</body>
</html>
"""


def cmd_copy(args):
    site, nocsp = args.site, args.nocsp
    shutil.copytree(site, nocsp)
    pages, with_csp, csp_meta = 0, 0, ""
    for folder, _, files in os.walk(nocsp):
        for name in files:
            if not name.endswith(".html"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            stripped, count = CSP_META.subn("", text)
            pages += 1
            if count:
                with_csp += 1
                csp_meta = csp_meta or CSP_META.search(text).group(0).strip()
            if "content-security-policy" in stripped.lower():
                sys.exit(f"error: could not remove the CSP from {path}")
            with open(path, "w", encoding="utf-8") as f:
                f.write(stripped)
    for root, ids, meta in ((nocsp, sorted(CONTROL_IDS), ""), (site, sorted(CSP_CONTROL_IDS), csp_meta + "\n")):
        os.makedirs(os.path.join(root, "proof-control"), exist_ok=True)
        with open(os.path.join(root, "proof-control", "index.html"), "w", encoding="utf-8") as f:
            f.write(control_page(args.port, ids, meta if csp_meta else ""))
    print(f"{pages} pages, {with_csp} with a CSP meta tag (removed in the copy)")
    if with_csp < pages:
        print(f"warning: {pages - with_csp} generated pages have no CSP meta tag", file=sys.stderr)


# MARK: - Chromium over the DevTools protocol


class Browser:
    """Chromium with --remote-debugging-pipe: NUL-terminated JSON on fds 3 (in) and 4 (out)."""

    def __init__(self, chromium, profile, stderr):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        argv = [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--remote-debugging-pipe",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            # Every tab runs as if it were the visible, focused one (autofocus, timers, frames).
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows",
            "--mute-audio",
            "--autoplay-policy=no-user-gesture-required",
            "--password-store=basic",
            # Hermetic: only the local server resolves (ok.example & co. fail at once).
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--window-size=1280,1024",
            "about:blank",
        ]
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr, preexec_fn=wire, close_fds=False
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending = {}
        self.sessions = {}
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self.from_chrome, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self.lock:
                        waiter = self.pending.pop(message["id"], None)
                    if waiter:
                        waiter.put(message)
                else:
                    target = self.sessions.get(message.get("sessionId"))
                    if target:
                        target.put(message)
        self.closed = True
        with self.lock:
            for waiter in self.pending.values():
                waiter.put({"error": {"message": "browser closed"}})
            for target in self.sessions.values():
                target.put({"method": "Browser.closed"})

    def send(self, method, params=None, session=None):
        """Sends without waiting for the answer (which is then dropped)."""
        self.call(method, params, session, timeout=None)

    def call(self, method, params=None, session=None, timeout=20):
        waiter = queue.Queue()
        with self.lock:
            self.next_id += 1
            mid = self.next_id
            self.pending[mid] = waiter
        message = {"id": mid, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            with self.lock:
                os.write(self.to_chrome, data)
        except OSError as error:
            raise RuntimeError(f"{method}: browser pipe closed ({error})")
        if timeout is None:
            return {}
        try:
            reply = waiter.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"{method}: no answer in {timeout}s")
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Tab:
    def __init__(self, browser, context):
        self.browser = browser
        self.events = queue.Queue()
        params = {"url": "about:blank", "newWindow": True, "browserContextId": context}
        target = browser.call("Target.createTarget", params)["targetId"]
        self.target = target
        self.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.sessions[self.session] = self.events
        for method in ("Page.enable", "Network.enable", "Log.enable"):
            self.call(method)
        # Headless windows are never focused: without this, autofocus and focus events never fire.
        self.call("Emulation.setFocusEmulationEnabled", {"enabled": True})
        self.inflight = set()
        self.page = None
        self.loaded = False
        self.doc_status = None
        self.records = []

    def call(self, method, params=None, timeout=20):
        return self.browser.call(method, params, session=self.session, timeout=timeout)

    def send(self, method, params=None):
        self.browser.send(method, params, session=self.session)

    def handle(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Browser.closed":
            raise RuntimeError("browser closed")
        if method == "Network.requestWillBeSent":
            self.inflight.add(params["requestId"])
            url = params["request"]["url"]
            if "/pwned" in urlsplit(url).path:
                initiator = params.get("initiator", {}).get("type")
                self.records.append({"kind": "pwned-cdp", "page": self.page, "url": url, "initiator": initiator})
            # A top-level document other than the one opened: the page navigated on its own.
            if params.get("type") == "Document" and params.get("frameId") == self.target and url != self.page:
                self.records.append({"kind": "navigation", "page": self.page, "url": url})
        elif method in ("Network.loadingFinished", "Network.loadingFailed"):
            self.inflight.discard(params["requestId"])
        elif method == "Network.responseReceived":
            if params.get("type") == "Document" and params["response"]["url"] == self.page:
                self.doc_status = params["response"]["status"]
        elif method == "Page.loadEventFired":
            self.loaded = True
        elif method == "Log.entryAdded":
            entry = params["entry"]
            if "Content Security Policy" in entry.get("text", ""):
                self.records.append({"kind": "csp-violation", "page": self.page, "text": entry["text"][:300]})
        elif method == "Page.javascriptDialogOpening":
            self.records.append({"kind": "dialog", "page": self.page, "text": params.get("message", "")[:200]})
            try:
                self.call("Page.handleJavaScriptDialog", {"accept": False}, timeout=5)
            except RuntimeError:
                pass
        elif method == "Inspector.targetCrashed":
            raise RuntimeError(f"renderer crashed on {self.page}")

    def pump(self, until, timeout):
        """Handles events until `until()` holds or `timeout` seconds pass; returns whether it held."""
        deadline = time.monotonic() + timeout
        while not until():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                self.handle(self.events.get(timeout=min(remaining, 0.05)))
            except queue.Empty:
                pass
        return True

    def quiet(self, settle, timeout):
        """Waits until nothing is in flight for `settle` seconds (at most `timeout`)."""
        deadline = time.monotonic() + timeout
        idle_since = time.monotonic()
        while time.monotonic() < deadline:
            try:
                self.handle(self.events.get(timeout=0.02))
            except queue.Empty:
                pass
            if self.inflight:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since >= settle:
                return True
        return False

    def open(self, url, settle):
        self.page, self.loaded, self.doc_status = url, False, None
        self.inflight.clear()
        started = time.monotonic()
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            return {"url": url, "status": "error", "error": result["errorText"]}
        if not self.pump(lambda: self.loaded, 15):
            return {"url": url, "status": "timeout"}
        # Interaction-free triggers (autofocus, onload, onerror, animations, timers) fire on their
        # own; also move the pointer over the page and tab through it (never clicking). The input
        # is sent without waiting for each acknowledgement; quiet() then waits for what it caused.
        for x, y in ((40, 40), (320, 240), (640, 480), (960, 720)):
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for _ in range(2):
            for kind in ("keyDown", "keyUp"):
                key = {"type": kind, "key": "Tab", "code": "Tab", "windowsVirtualKeyCode": 9}
                self.send("Input.dispatchKeyEvent", key)
        self.quiet(settle, 3)
        status = "ok" if self.doc_status == 200 else f"http-{self.doc_status}"
        return {"url": url, "status": status, "ms": int((time.monotonic() - started) * 1000)}


def cmd_browse(args):
    with open(args.urls, encoding="utf-8") as f:
        urls = [line.strip() for line in f if line.strip()]
    stderr = open(args.chromium_log, "ab")
    browser = Browser(args.chromium, args.profile, stderr)
    # Killed by the script's cleanup: still close the browser (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = queue.Queue()
    for url in urls:
        work.put(url)
    results, failures = [], []
    lock = threading.Lock()
    out = open(args.out, "a", encoding="utf-8")

    # An off-the-record context: caches and storage stay in memory (and cleaning up stays quick).
    context = browser.call("Target.createBrowserContext", {"disposeOnDetach": True})["browserContextId"]

    def worker():
        try:
            tab = Tab(browser, context)
            while True:
                try:
                    url = work.get_nowait()
                except queue.Empty:
                    break
                result = tab.open(url, args.settle)
                with lock:
                    results.append(result)
                    for record in [{"kind": "page", **result}] + tab.records:
                        out.write(json.dumps(record) + "\n")
                    out.flush()
                    tab.records = []
                    done = len(results)
                if args.progress and done % args.progress == 0:
                    print(f"  {done}/{len(urls)} pages", file=sys.stderr, flush=True)
        except Exception as error:  # noqa: BLE001 - reported and turned into a failure
            with lock:
                failures.append(str(error))

    try:
        threads = [threading.Thread(target=worker) for _ in range(args.tabs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        browser.close()
    out.close()
    if failures:
        for failure in failures:
            print(f"error: browser: {failure}", file=sys.stderr)
        sys.exit(2)
    if len(results) != len(urls):
        sys.exit(f"error: opened {len(results)} of {len(urls)} pages")


# MARK: - Report


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def beacon_id(url):
    values = parse_qs(urlsplit(url).query).get("id")
    return values[0] if values else "?"


def cmd_control(args):
    """After opening the control pages: the no-CSP control must have fired, the CSP one not."""
    seen = {beacon_id(e["path"]) for e in read_jsonl(args.server_log) if e["kind"] == "pwned"}
    missing = CONTROL_IDS - seen
    if missing:
        sys.exit(
            f"error: positive control failed: Chromium did not request /pwned?id={', '.join(sorted(missing))} "
            "from an unsanitised page, so the proof would pass vacuously (is JavaScript running?)"
        )
    leaked = CSP_CONTROL_IDS & seen
    if leaked:
        sys.exit(
            "error: the generated CSP meta tag did not stop inline script on the control page "
            f"(/pwned?id={', '.join(sorted(leaked))} seen)"
        )
    print(f"positive control: Chromium ran the unsanitised page ({', '.join(sorted(CONTROL_IDS))} seen); "
          f"the site's CSP blocked the same page ({', '.join(sorted(CSP_CONTROL_IDS))} not seen)")


def cmd_report(args):
    server = read_jsonl(args.server_log)
    browse = read_jsonl(args.browse_log)
    expected = json.load(open(args.expected, encoding="utf-8"))
    controls = CONTROL_IDS | CSP_CONTROL_IDS
    pages = [r for r in browse if r["kind"] == "page" and "/proof-control/" not in r["url"]]
    bad_pages = [r for r in pages if r["status"] != "ok"]
    per_copy = {
        copy: sum(1 for r in pages if f"/{copy}/" in r["url"] and r["status"] == "ok")
        for copy in ("site", "site-nocsp")
    }
    pwned = [e for e in server if e["kind"] == "pwned" and beacon_id(e["path"]) not in controls]
    cdp_pwned = [r for r in browse if r["kind"] == "pwned-cdp" and beacon_id(r["url"]) not in controls]
    kinds = {}
    for e in server:
        kind = e["kind"]
        if kind == "pwned" and beacon_id(e["path"]) in controls:
            kind = "pwned by the control page"
        kinds[kind] = kinds.get(kind, 0) + 1
    kinds.setdefault("pwned", 0)
    other = [e for e in server if e["kind"] in ("other", "site-missing")]
    csp = [r for r in browse if r["kind"] == "csp-violation" and "/proof-control/" not in (r["page"] or "")]
    navigations = [r for r in browse if r["kind"] == "navigation" and "/proof-control/" not in (r["page"] or "")]
    dialogs = [r for r in browse if r["kind"] == "dialog"]

    vectors = len(load_vectors(args.vectors))
    items = sum(len(v["ids"]) for v in expected.values())
    built, missing, rejected = 0, {}, {}
    for name, feed in expected.items():
        folder = os.path.join(args.site, "items", name)
        count = len(os.listdir(folder)) if os.path.isdir(folder) else 0
        built += count
        if count < len(feed["ids"]):
            # Malformed documents (characters XML forbids, ill-formed xhtml) may be rejected.
            (rejected if feed["may_reject"] else missing)[name] = (count, len(feed["ids"]))
    print("")
    print("== browser proof summary ==")
    print(f"vectors: {vectors} (hostile corpus), carried by {len(expected)} feeds as {items} items "
          "(RSS escaped, RSS CDATA, Atom html, Atom xhtml)")
    well_formed = sum(len(v["ids"]) for v in expected.values() if not v["may_reject"])
    malformed = [v for v in expected.values() if v["may_reject"]]
    print(f"item pages built: {built} = every one of the {well_formed} items in well-formed feeds, plus "
          f"{built - well_formed} of the {sum(len(v['ids']) for v in malformed)} items in {len(malformed)} "
          "malformed feeds (characters XML forbids, ill-formed xhtml) that feedsite repaired")
    if rejected:
        print(f"  rejected by feedsite (allowed: nothing is published): {len(rejected)} feeds: "
              + ", ".join(f"{name}" for name in list(rejected)[:6])
              + (" …" if len(rejected) > 6 else ""))
    print(f"pages opened: {per_copy['site']} with CSP + {per_copy['site-nocsp']} without CSP "
          f"= {per_copy['site'] + per_copy['site-nocsp']} ({len(pages) // 2 if pages else 0} pages × 2)")
    order = ["pwned", "pwned by the control page", "feed", "other", "site-missing"]
    print("requests seen by the server besides the site's own files: "
          + ", ".join(f"{k} {kinds[k]}" for k in sorted(kinds, key=lambda k: (order + [k]).index(k))))
    if other:
        paths = {}
        for e in other:
            paths[e["path"]] = paths.get(e["path"], 0) + 1
        top = sorted(paths.items(), key=lambda kv: -kv[1])[:8]
        print("  the 'other' and 'site-missing' ones (harmless GETs, e.g. images resolved against the item link): "
              + ", ".join(f"{p} ×{n}" for p, n in top)
              + (" …" if len(paths) > len(top) else ""))
    print(f"CSP violations reported in the copy with CSP: {len(csp)}")
    for r in csp[:5]:
        print(f"  {r['page']}: {r['text']}")
    if navigations:
        print(f"pages that navigated away on their own: {len(navigations)}")
        for r in navigations[:5]:
            print(f"  {r['page']} → {r['url']}")
    if dialogs:
        print(f"JavaScript dialogs opened: {len(dialogs)}")

    failed = False
    if bad_pages:
        failed = True
        print(f"FAIL: {len(bad_pages)} pages did not load:")
        for r in bad_pages[:20]:
            print(f"  {r['url']}: {r['status']} {r.get('error', '')}")
    if pwned or cdp_pwned:
        failed = True
        ids = sorted({beacon_id(e["path"]) for e in pwned} | {beacon_id(r["url"]) for r in cdp_pwned},
                     key=lambda v: (len(v), v))
        print(f"FAIL: the detector saw {len(pwned)} /pwned request(s) (Chromium reported {len(cdp_pwned)}): "
              f"vector id(s) {', '.join(ids)}")
        for e in pwned:
            print(f"  server: {e['method']} {e['path']}  (referer: {e['referer'] or '-'})")
        for r in cdp_pwned:
            print(f"  chromium: {r['url']}  from page {r['page']} (initiator: {r['initiator']})")
    if csp:
        failed = True
        print(f"FAIL: {len(csp)} page(s) with the CSP tried something it forbids (inline script or handler, "
              "inline style, a frame…): markup outside the allowlist reached the page (listed above)")
    if dialogs:
        failed = True
        print("FAIL: a page opened a JavaScript dialog (script ran):")
        for r in dialogs[:10]:
            print(f"  {r['page']}: {r['text']}")
    if missing:
        failed = True
        for name, (count, total) in missing.items():
            print(f"FAIL: feed {name}: only {count} of {total} items became pages, so those vectors were "
                  "never opened in the browser (see feedsite's warnings above)")
    if failed:
        sys.exit(1)
    print("PASS: no vector requested /pwned, with or without the CSP")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("serve")
    p.add_argument("--root", required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("feeds")
    p.add_argument("--vectors", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--www", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--expected", required=True)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--extra", action="append", help="an extra top-level feeds.yml line")
    p.set_defaults(run=cmd_feeds)

    p = sub.add_parser("copy")
    p.add_argument("--site", required=True)
    p.add_argument("--nocsp", required=True)
    p.add_argument("--port", type=int, required=True)
    p.set_defaults(run=cmd_copy)

    p = sub.add_parser("browse")
    p.add_argument("--urls", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--chromium", required=True)
    p.add_argument("--chromium-log", required=True)
    p.add_argument("--profile", required=True)
    p.add_argument("--tabs", type=int, default=4)
    p.add_argument("--settle", type=float, default=0.05)
    p.add_argument("--progress", type=int, default=0)
    p.set_defaults(run=cmd_browse)

    p = sub.add_parser("control")
    p.add_argument("--server-log", required=True)
    p.set_defaults(run=cmd_control)

    p = sub.add_parser("report")
    p.add_argument("--server-log", required=True)
    p.add_argument("--browse-log", required=True)
    p.add_argument("--expected", required=True)
    p.add_argument("--vectors", required=True)
    p.add_argument("--site", required=True)
    p.set_defaults(run=cmd_report)

    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
