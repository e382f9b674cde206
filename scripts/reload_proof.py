#!/usr/bin/env python3
"""The live-reload check of `feedsite serve` in a real browser, run by scripts/reload-proof.sh.

A browser's EventSource gives up for good when its request is answered with anything but an event
stream; the server answers 503 when 256 live-reload streams are open already. This check fills
those 256 places with raw connections, opens a served page in headless Chromium (its stream is
refused), frees the places, and then changes feeds.yml every few seconds: the page must reconnect
on its own and reload after a rebuild. Before session 29 it never did.

Two controls keep the check honest: with the places free, the page reloads after a rebuild (the
proof's mechanics work); and the refusal really happened (the server answered a 503 to one more
raw stream while the places were full).

No network: the feed is a local file, Chromium resolves no host but 127.0.0.1.
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download a driver or a browser.

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError as error:
    print(f"reload-proof: error: {error}; run scripts/install-deps.sh test", file=sys.stderr)
    sys.exit(1)

REPO = Path(__file__).resolve().parent.parent
FEED = REPO / "Tests/FeedsiteKitTests/Fixtures/real-feeds/hugo-rss2.xml"
STREAMS = 256  # LiveReloadHub.maxStreams


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def open_stream(port):
    """A raw live-reload stream; returns the socket and the status line of its answer."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(f"GET /_feedsite/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = connection.recv(4096)
        if not chunk:
            break
        head += chunk
    return connection, head.split(b"\r\n", 1)[0].decode(errors="replace")


def wait_until(condition, seconds, step=0.25):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def make_driver(chromium, chromedriver, profile):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
        "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ]:
        options.add_argument(argument)
    service = Service(executable_path=chromedriver, log_output=str(Path(profile).parent / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(60)
    return driver


def reloads_after_rebuilds(driver, config, seconds):
    """Marks the page, then changes feeds.yml every 4 s until the page is a new one (or time is up)."""
    driver.execute_script("window.__reloadProof = 1;")
    deadline = time.monotonic() + seconds
    round_ = 0
    while time.monotonic() < deadline:
        round_ += 1
        with open(config, "a") as file:
            file.write(f"# change {round_}\n")
        if wait_until(lambda: driver.execute_script("return window.__reloadProof === undefined;"), 4):
            return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--feedsite", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="reload-proof-"))
    server = driver = None
    streams = []
    try:
        shutil.copy(FEED, folder / "feed.xml")
        config = folder / "feeds.yml"
        config.write_text("title: Reload proof\nsearch: false\nfeeds:\n  - url: feed.xml\n")
        port = free_port()
        log = open(folder / "serve.log", "w")
        server = subprocess.Popen(
            [args.feedsite, "serve", "--config", str(config), "--output", str(folder / "Site"), "--port", str(port)],
            cwd=folder, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "FEEDSITE_AVATARS": "off"})
        page = f"http://127.0.0.1:{port}/"

        def answers():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    return True
            except OSError:
                return False

        if not wait_until(answers, 600):
            print(f"reload-proof: error: the server did not start; see {folder}/serve.log", file=sys.stderr)
            return 1
        driver = make_driver(args.chromium, args.chromedriver, folder / "profile")

        # Control: with free places, a rebuild reloads the page.
        driver.get(page)
        time.sleep(1)
        if not reloads_after_rebuilds(driver, config, 60):
            print("reload-proof: error: control failed: the page did not reload after a rebuild", file=sys.stderr)
            return 1

        # Every place taken: the page's stream is refused (503).
        for _ in range(STREAMS):
            connection, status = open_stream(port)
            streams.append(connection)
        extra, status = open_stream(port)
        extra.close()
        if " 503 " not in status + " ":
            print(f"reload-proof: error: with {STREAMS} streams open the server answered {status!r}, not 503",
                  file=sys.stderr)
            return 1
        driver.get(page)
        time.sleep(3)
        for connection in streams:
            connection.close()
        streams = []
        # The places are freed at the server's next heartbeat (10 s); the page retries on its own.
        if not reloads_after_rebuilds(driver, config, 90):
            print("reload-proof: error: a page whose live-reload stream was refused (503) never reconnected: "
                  "it did not reload after rebuilds in 90 s", file=sys.stderr)
            return 1
        print("reload-proof: a page refused live reload (503) reconnected once places were free, and reloaded")
        return 0
    finally:
        for connection in streams:
            connection.close()
        if driver is not None:
            driver.quit()
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        if args.keep:
            print(f"reload-proof: kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
