#!/usr/bin/env python3
"""Opens feedsite's search page in headless Chromium and prints what it found (JSON on stdout).

Usage: scripts/search_proof.py URL [--chromium PATH] [--timeout SECONDS]
  URL  the search page with its query, served over http(s): http://127.0.0.1:8000/search/index.html?q=swift

Prints {"status": "...", "results": [{"title": ..., "href": ...}], "console": [...], "csp": [...]}
once the page lists results or says it found none, or the timeout passes. Exit status 0 when the
page finished (results or "No items found"), 1 otherwise. Uses the DevTools-protocol client of
browser_proof.py (Python standard library only).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_proof import Browser, Tab  # noqa: E402

READ = """(() => {
  const status = document.getElementById("search-status");
  const links = [...document.querySelectorAll("#search-results li h2 a")];
  return JSON.stringify({
    status: status ? status.textContent : null,
    results: links.map((a) => ({ title: a.textContent, href: a.href })),
    excerpts: [...document.querySelectorAll("#search-results .excerpt")].map((p) => p.innerHTML),
  });
})()"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    parser.add_argument("--timeout", type=float, default=30)
    args = parser.parse_args()
    if not args.chromium:
        print("search_proof: chromium is not installed", file=sys.stderr)
        return 2
    profile = tempfile.mkdtemp(prefix="feedsite-search-proof-")
    browser = Browser(args.chromium, profile, open(os.devnull, "w"))
    console, csp = [], []
    try:
        context = browser.call("Target.createBrowserContext")["browserContextId"]
        tab = Tab(browser, context)
        tab.call("Runtime.enable")
        original = tab.handle

        def handle(event):
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                console.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:500])
            elif method == "Log.entryAdded":
                text = params["entry"].get("text", "")
                console.append("log: " + text[:300])
                if "Content Security Policy" in text:
                    csp.append(text[:300])
            original(event)

        tab.handle = handle
        tab.open(args.url, settle=0.5)
        state = {}
        deadline = time.monotonic() + args.timeout
        while time.monotonic() < deadline:
            reply = tab.call("Runtime.evaluate", {"expression": READ, "returnByValue": True})
            state = json.loads(reply.get("result", {}).get("value") or "{}")
            status = state.get("status") or ""
            if state.get("results") or status.startswith("No items") or "could not" in status:
                break
            tab.pump(lambda: False, 0.25)
        state["console"] = console
        state["csp"] = csp
        print(json.dumps(state, ensure_ascii=False))
        finished = bool(state.get("results")) or (state.get("status") or "").startswith("No items")
        return 0 if finished else 1
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
