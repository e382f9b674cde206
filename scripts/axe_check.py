#!/usr/bin/env python3
"""The accessibility check of the default theme (issue 22), run by scripts/axe-check.sh.

Builds three sites from real-world fixture feeds (Tests/FeedsiteKitTests/Fixtures/real-feeds/,
served from 127.0.0.1 with one feed that answers 404, so the status page has a failing row): one
in English with every page type, one with `language: de` and one with `language: ar` (right to
left). From each it picks one page of every type (the index and its page 2, a feed page, a list
with thumbnails, item pages with an audio player, a video poster and right-to-left content, a tag
page and the tags index, a category page, the archive index and a month, the search page with
results, the status page and the 404 page), opens each in headless Chromium through Selenium in
the light and the dark colour scheme (`prefers-color-scheme` emulated; the theme's colours, and
so contrast, differ), and runs axe-core (as axe-selenium-python bundles it) over it.

Fails on any violation whose impact is serious or critical, one line per offending node:
    site-de/status/index.html [dark]: error: color-contrast (serious): .health-failing > td:nth-child(2): Elements must have sufficient color contrast; see https://…
Minor and moderate violations are printed as warnings.

No network: Selenium is handed the apt chromedriver (Selenium Manager never runs; SE_OFFLINE is
set), and Chromium resolves no host but 127.0.0.1, so item images from other hosts fail at once
rather than after a timeout.
"""

import argparse
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never download a driver or a browser.

try:
    from axe_selenium_python import Axe
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError as error:  # the wrapper checks first; this is for running the script by hand
    print(f"axe-check: error: {error}; run scripts/install-deps.sh test", file=sys.stderr)
    sys.exit(1)

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "Tests/FeedsiteKitTests/Fixtures/real-feeds"
FAILING_IMPACTS = {"serious", "critical"}
# The positive control: a page written into the English site (not through feedsite) with two
# violations axe must report, so the check cannot pass because axe never ran.
CONTROL_PAGE = "axe-control.html"
CONTROL_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>axe control</title></head>
<body><main><h1>Control</h1><img src="missing.png"><p style="color:#c8c8c8;background:#fff">Faint</p></main></body></html>
"""
CONTROL_RULES = {"image-alt", "color-contrast"}

# Feeds chosen for what they put on pages: audio (ATP), video posters and thumbnails (YouTube,
# PeerTube), images in lists (Guardian), Urdu right to left, categories, a JSON Feed with a
# language, enough items for page 2.
FEEDS = [
    ("podcast-itunes-squarespace-atp.xml", ["podcasts"]),
    ("youtube-atom.xml", ["video"]),
    ("peertube-rss2-media.xml", ["video"]),
    ("guardian-rss2-media-dc-creator.xml", ["news"]),
    ("urdu-rtl-utf8.xml", ["news", "اردو"]),
    ("jsonfeed-1.1-authors-language.json", ["blogs"]),
    ("hugo-rss2.xml", ["blogs"]),
    ("wordpress-rss2-content-encoded.xml", ["blogs"]),
]
MISSING_FEED = "gone-404.xml"  # not in the folder: the server answers 404, the status page says failing

SITES = [("site-en", "en"), ("site-de", "de"), ("site-ar", "ar")]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(root):
    """One HTTP server on 127.0.0.1:0 for `root` (feeds under feeds/, each site in its folder)."""
    handler = functools.partial(QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def write_config(path, port, folder, language, state):
    lines = [
        f"title: Accessibility planet ({language})",
        "description: Real-world feeds, checked by axe-core",
        # The site's own address, so the 404 page's path-absolute links (its stylesheet too) resolve.
        f"base_url: http://127.0.0.1:{port}/{folder}/",
        f"language: {language}",
        "page_size: 10",
        "timezone: Europe/Berlin",
        "retries: 0",
        f"state_dir: {state}",
        "category_pages: true",
        "feeds:",
    ]
    for name, tags in FEEDS + [(MISSING_FEED, ["gone"])]:
        lines.append(f"  - url: http://127.0.0.1:{port}/feeds/{name}")
        lines.append(f"    tags: {json.dumps(tags, ensure_ascii=False)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def build(feedsite, config, output, log):
    with open(log, "w", encoding="utf-8") as out:
        status = subprocess.run(
            [feedsite, "build", "--config", str(config), "--output", str(output), "--templates", str(REPO / "Templates")],
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    # A failing feed is a warning, not a failed build: the site is written (exit 0).
    if status != 0:
        sys.stderr.write(Path(log).read_text(encoding="utf-8", errors="replace"))
        raise SystemExit(f"axe-check: FAIL: feedsite build of {output.name} exited {status}")


def first(site, pattern, contains=None):
    """The first page (sorted) whose path matches `pattern` and, if given, whose HTML matches `contains`."""
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site).as_posix()
        if not re.fullmatch(pattern, relative):
            continue
        if contains is None or re.search(contains, path.read_text(encoding="utf-8", errors="replace")):
            return relative
    return None


def pick_pages(site):
    """One page of every type, by what its path and HTML show; a type that cannot be found fails."""
    kinds = [
        ("index", r"index\.html", None),
        ("index page 2", r"page/2/index\.html", None),
        ("feed page", r"feeds/[^/]+/index\.html", None),
        ("list with thumbnails", r"feeds/[^/]+/index\.html", r'class="thumb"'),
        ("list with video thumbnails", r"feeds/[^/]+/index\.html", r'class="thumb video"'),
        ("feed page, right to left", r"feeds/[^/]+/index\.html", r'dir="rtl"'),
        ("item with audio", r"items/.+/index\.html", r"<audio "),
        ("item with a video poster", r"items/.+/index\.html", r'class="video-poster"'),
        ("item with an image", r"items/.+/index\.html", r'<div class="content"[^>]*>\s*(?:<[^>]+>\s*)*<img '),
        ("item, right to left", r"items/.+/index\.html", r'<h1[^>]* dir="rtl"'),
        ("tags index", r"tags/index\.html", None),
        ("tag page", r"tags/[^/]+/index\.html", None),
        ("categories index", r"categories/index\.html", None),
        ("category page", r"categories/[^/]+/index\.html", None),
        ("archive index", r"archive/index\.html", None),
        ("archive month", r"archive/\d{4}/\d{2}/index\.html", None),
        ("status page", r"status/index\.html", None),
        ("404 page", r"404\.html", None),
    ]
    if (site / "search/index.html").exists():
        kinds.append(("search page", r"search/index\.html", None))
    pages, missing = [], []
    for kind, pattern, contains in kinds:
        page = first(site, pattern, contains)
        if page is None:
            missing.append(kind)
        elif page not in [p for _, p in pages]:
            pages.append((kind, page))
    return pages, missing


def make_driver(chromium, chromedriver, profile):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        # Nothing leaves the machine: other hosts (item images, media) do not resolve.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ]:
        options.add_argument(argument)
    service = Service(executable_path=chromedriver, log_output=str(Path(profile).parent / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(120)
    return driver


def set_scheme(driver, scheme):
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )


def wait_for_search(driver):
    """The search page with `?q=`: until its results (or its no-result line) are on the page."""
    deadline = time.time() + 30
    while time.time() < deadline:
        done = driver.execute_script(
            "const s = document.getElementById('search-status');"
            "return document.querySelectorAll('#search-results li').length > 0 ||"
            " (s && s.textContent.length > 0 && !s.textContent.endsWith('…'));"
        )
        if done:
            return True
        time.sleep(0.2)
    return False


def check_page(driver, url, scheme, label, report):
    driver.get(url)
    is_dark = driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches")
    if is_dark != (scheme == "dark"):
        report["errors"].append(f"{label} [{scheme}]: error: the colour scheme was not emulated")
        return
    if "?q=" in url and not wait_for_search(driver):
        report["errors"].append(f"{label} [{scheme}]: error: the search page showed no result in 30 s")
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    report["runs"] += 1
    for violation in results.get("violations", []):
        impact = violation.get("impact") or "unknown"
        for node in violation.get("nodes", []):
            target = " ".join(str(t) for t in node.get("target", []))
            line = (
                f"{label} [{scheme}]: {'error' if impact in FAILING_IMPACTS else 'warning'}: "
                f"{violation['id']} ({node.get('impact') or impact}): {target}: {violation.get('help', '')}; "
                f"see {violation.get('helpUrl', '')}"
            )
            report["errors" if impact in FAILING_IMPACTS else "warnings"].append(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--feedsite", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    started = time.time()
    tmp = Path(tempfile.mkdtemp(prefix="feedsite-axe."))
    www = tmp / "www"
    (www / "feeds").mkdir(parents=True)
    for name, _ in FEEDS:
        shutil.copy(FIXTURES / name, www / "feeds" / name)
    server = serve(www)
    port = server.server_address[1]
    driver = None
    try:
        chosen = []
        for folder, language in SITES:
            config = tmp / f"{folder}.yml"
            write_config(config, port, folder, language, tmp / f"state-{folder}")
            build(args.feedsite, config, www / folder, tmp / f"{folder}.log")
            pages, missing = pick_pages(www / folder)
            if missing:
                raise SystemExit(f"axe-check: FAIL: {folder} has no page of type: {', '.join(missing)}")
            for kind, page in pages:
                chosen.append((folder, kind, page))
                if kind == "search page":
                    chosen.append((folder, "search results", page + "?q=the"))
        print(f"axe-check: {len(chosen)} pages from {len(SITES)} sites (en, de, ar), light and dark:")
        for folder, kind, page in chosen:
            print(f"  {folder}/{page}  ({kind})")

        driver = make_driver(args.chromium, args.chromedriver, tmp / "profile")
        (www / SITES[0][0] / CONTROL_PAGE).write_text(CONTROL_HTML, encoding="utf-8")
        control = {"errors": [], "warnings": [], "runs": 0}
        check_page(driver, f"http://127.0.0.1:{port}/{SITES[0][0]}/{CONTROL_PAGE}", "light", "control", control)
        found = {line.split(": ")[2].split(" ")[0] for line in control["errors"]}
        if not CONTROL_RULES <= found:
            print("\n".join(control["errors"]), file=sys.stderr)
            print(f"axe-check: FAIL: the control page's violations {sorted(CONTROL_RULES)} were not all reported "
                  f"(got {sorted(found)}): axe did not run as it should", file=sys.stderr)
            return 1
        print(f"axe-check: the control page's violations were reported ({', '.join(sorted(found))})")

        report = {"errors": [], "warnings": [], "runs": 0}
        for scheme in ["light", "dark"]:
            set_scheme(driver, scheme)
            for folder, _, page in chosen:
                url = f"http://127.0.0.1:{port}/{folder}/{page}"
                check_page(driver, url, scheme, f"{folder}/{page}", report)
        for line in report["warnings"]:
            print(f"  {line}")
        for line in report["errors"]:
            print(line, file=sys.stderr)
        elapsed = int(time.time() - started)
        if report["errors"]:
            print(
                f"axe-check: FAIL: {len(report['errors'])} serious or critical violation(s) in {report['runs']} "
                f"page runs ({elapsed} s)",
                file=sys.stderr,
            )
            return 1
        print(
            f"axe-check: OK: {report['runs']} page runs, no serious or critical violation "
            f"({len(report['warnings'])} minor or moderate; {elapsed} s)"
        )
        return 0
    finally:
        if driver is not None:
            driver.quit()
        server.shutdown()
        if args.keep:
            print(f"axe-check: kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
