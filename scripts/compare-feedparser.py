#!/usr/bin/env python3
"""Compare feedsite's parser with Python's feedparser over a folder of feed files.

    scripts/compare-feedparser.py [--feedsite PATH] [--verbose] FOLDER [FOLDER...]

For every feed file (not README/.md) it runs `feedparser.parse` and `feedsite parse --json` and
reports whether the two agree on: the item count, and per item the title, link, date (published,
else updated, in UTC to the second) and first author's name. Titles are compared as plain text
with whitespace collapsed: feedsite's are plain text already, feedparser's HTML titles (its
`title_detail.type`) have their tags stripped and entities decoded. A field one side does not have (no date, no author) must be
missing on the other side too.

feedparser is installed with pip into a virtual environment under .build/feedparser-venv the first
time (PyPI must be reachable then). feedsite defaults to .build/debug/feedsite.

A disagreement is not a bug by itself: read the fixture and the spec to decide who is right
(Tests/FeedsiteKitTests/Fixtures/parse/README.md records the verdicts for feedsite's fixtures).
Exit status: 0 when the comparison ran (whatever it found), 2 on a usage or setup error.
"""

import argparse
import calendar
import html
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build", "feedparser-venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")


def ensure_feedparser():
    """Re-runs this script inside the venv (creating it, with feedparser, when missing)."""
    try:
        import feedparser  # noqa: F401
        return
    except ImportError:
        pass
    if os.path.abspath(sys.executable) == os.path.abspath(VENV_PYTHON):
        sys.exit("feedparser is not importable inside %s; remove it and run again" % VENV)
    if not os.path.exists(VENV_PYTHON):
        print("creating %s and installing feedparser…" % VENV, file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([VENV_PYTHON, "-m", "pip", "install", "-q", "feedparser"], check=True)
    os.execv(VENV_PYTHON, [VENV_PYTHON] + sys.argv)


BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|pre|hr|table|img)\b[^>]*>", re.I)


def collapse(text):
    return " ".join(text.split()) or None if text is not None else None


def plain(text, is_html=True):
    """Plain text: (for HTML) tags stripped and entities decoded once; whitespace collapsed."""
    if text is None:
        return None
    if is_html:
        text = BLOCK_TAG.sub(" ", text)
        text = re.sub(r"<[^>]*>", "", text)
        text = html.unescape(text)
    return collapse(text)


def iso(parsed):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(calendar.timegm(parsed))) if parsed else None


def feedparser_view(path):
    import feedparser

    with open(path, "rb") as handle:
        data = handle.read()
    base = "file://" + os.path.abspath(path)
    result = feedparser.parse(data, response_headers={"content-location": base})
    items = []
    for entry in result.entries:
        date = entry.get("published_parsed") or entry.get("updated_parsed")
        author = entry.get("author_detail", {}).get("name") if entry.get("author_detail") else None
        if author is None and entry.get("authors"):
            author = entry["authors"][0].get("name")
        detail = entry.get("title_detail") or {}
        is_html = detail.get("type", "text/html") in ("text/html", "application/xhtml+xml")
        items.append(
            {
                "title": plain(entry.get("title"), is_html),
                "link": entry.get("link") or None,
                "date": iso(date),
                "author": collapse(author),
            }
        )
    return {"items": items, "bozo": bool(result.get("bozo")), "version": result.get("version")}


def feedsite_view(path, feedsite):
    run = subprocess.run([feedsite, "parse", "--json", path], capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": (run.stderr or run.stdout).strip().splitlines()[-1:] or ["exit %d" % run.returncode]}
    feed = json.loads(run.stdout)
    items = []
    for item in feed.get("items", []):
        authors = item.get("authors") or []
        items.append(
            {
                "title": collapse(item.get("title")),
                "link": item.get("link") or None,
                "date": item.get("published") or item.get("updated"),
                "author": collapse(authors[0].get("name")) if authors else None,
            }
        )
    return {"items": items, "warnings": feed.get("warnings", []), "version": feed.get("version")}


def compare(path, feedsite):
    try:
        theirs = feedparser_view(path)
    except Exception as error:  # feedparser's own bugs (sgmllib asserts on some declarations)
        return ["feedparser crashed: %s: %s" % (type(error).__name__, error)]
    ours = feedsite_view(path, feedsite)
    if "error" in ours:
        return ["feedsite failed: %s" % " ".join(ours["error"])]
    problems = []
    if len(theirs["items"]) != len(ours["items"]):
        problems.append("item count: feedparser %d, feedsite %d" % (len(theirs["items"]), len(ours["items"])))
    for index, (a, b) in enumerate(zip(theirs["items"], ours["items"]), start=1):
        for field in ("title", "link", "date", "author"):
            if a[field] != b[field]:
                problems.append("item %d %s: feedparser %r, feedsite %r" % (index, field, a[field], b[field]))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", help="folders of feed files")
    parser.add_argument("--feedsite", default=os.path.join(ROOT, ".build", "debug", "feedsite"))
    parser.add_argument("--verbose", "-v", action="store_true", help="list every disagreement")
    args = parser.parse_args()
    if not os.access(args.feedsite, os.X_OK):
        print("no feedsite binary at %s: run `swift build` first or pass --feedsite" % args.feedsite, file=sys.stderr)
        return 2
    ensure_feedparser()
    files = []
    for folder in args.folders:
        if not os.path.isdir(folder):
            print("%s: not a folder" % folder, file=sys.stderr)
            return 2
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not name.startswith(".") and not name.lower().endswith(".md"):
                files.append(path)
    agreed = 0
    for path in files:
        problems = compare(path, args.feedsite)
        name = os.path.relpath(path)
        if problems:
            print("DIFFER  %s (%d)" % (name, len(problems)))
            for problem in problems if args.verbose else problems[:3]:
                print("        %s" % problem)
            if not args.verbose and len(problems) > 3:
                print("        … %d more (use --verbose)" % (len(problems) - 3))
        else:
            agreed += 1
            print("agree   %s" % name)
    print("\n%d of %d files agree (%.1f%%) on item count, titles, links, dates and author names"
          % (agreed, len(files), 100.0 * agreed / max(len(files), 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
