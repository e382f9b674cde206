#!/usr/bin/env python3
"""Compare feedsite's parser with gofeed's expected outputs (its test data).

    scripts/compare-gofeed.py --testdata GOFEED/testdata [--feedsite PATH] [--json OUT] [-v]

gofeed (github.com/mmcdole/gofeed, MIT) is not vendored: clone it and point --testdata at its
testdata folder. Development only; no test runs it (it needs the clone).

Inputs: every file in testdata/translator/{atom,rss,json}, testdata/extensions/* and
testdata/parser/{atom,rss} that has an expected-output JSON next to it (extensions/ JSON is a
universal Feed, like translator/). translator/ JSON is gofeed's universal Feed already;
parser/atom and parser/rss JSON (atom.Feed / rss.Feed) are mapped to the universal Feed with a
Python port of gofeed's DefaultAtomTranslator / DefaultRSSTranslator (translator.go), so both
kinds are compared on the same fields:

  item count; per item: title (plain text, see `plain`), link, id/guid, date (published else
  updated, compared as instants to the second), author names and emails, presence of a body
  (content, description); feed title and feed link.

Normalisation (after scripts/compare-feedparser.py): titles are compared as plain text with
whitespace collapsed. gofeed keeps raw text (HTML for type="html" Atom titles, whatever RSS had),
so its title matches when either its collapsed raw text or its tag-stripped, entity-decoded text
equals feedsite's. Relative links in gofeed's output are resolved against the input's file: URL
(feedsite resolves against the feed URL). Items without a title in gofeed get a synthesised
title in feedsite: that is deliberate and not compared.

Every feedsite run has a 10 s timeout; a crash, timeout or non-zero exit is reported.
Exit status 0 when the comparison ran.
"""

import argparse
import html
import json
import os
import re
import subprocess
import sys
import urllib.parse
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------------------------
# normalisation

BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|pre|hr|table|img)\b[^>]*>", re.I)


def collapse(text):
    if text is None:
        return None
    return " ".join(text.split()) or None


def plain(text):
    if text is None:
        return None
    text = BLOCK_TAG.sub(" ", text)
    text = re.sub(r"<[^>]*>", "", text)
    text = html.unescape(text)
    return collapse(text)


def instant(value):
    """ISO 8601 / RFC 3339 string (gofeed's time.Time JSON or feedsite's) -> UTC second."""
    if not value:
        return None
    v = value.strip()
    if v.endswith("Z"):
        v = v[:-1] + "+00:00"
    # Go may print fractional seconds with up to 9 digits; Python takes 6.
    v = re.sub(r"(\.\d{6})\d+", r"\1", v)
    try:
        d = datetime.fromisoformat(v)
    except ValueError:
        return "unparsed:" + value
    if d.tzinfo is None:
        d = d.replace(tzinfo=timezone.utc)
    return d.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def norm_link(link, base):
    if not link:
        return None
    link = link.strip()
    if not link:
        return None
    if not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", link):
        link = urllib.parse.urljoin(base, link)
    return link


# ----------------------------------------------------------------------------------------------
# gofeed: port of translator.go (parser JSON -> universal Feed)

EMAIL_NAME = re.compile(r"^([^@]+@\S+)\s+\(([^@]+)\)\Z")
NAME_EMAIL = re.compile(r"^([^@]+)\s+\(([^@]+@[^)]+)\)\Z")
NAME_ONLY = re.compile(r"^([^@()]+)\Z")
EMAIL_ONLY = re.compile(r"^([^@()]+@[^@()]+)\Z")


def person_from_text(text):
    name = email = ""
    if text:
        m = EMAIL_NAME.match(text)
        if m:
            email, name = m.group(1), m.group(2)
        elif NAME_EMAIL.match(text):
            m = NAME_EMAIL.match(text)
            name, email = m.group(1), m.group(2)
        elif NAME_ONLY.match(text):
            name = NAME_ONLY.match(text).group(1)
        elif EMAIL_ONLY.match(text):
            email = EMAIL_ONLY.match(text).group(1)
    return {"name": name, "email": email}


def first(xs):
    return xs[0] if xs else ""


def atom_ext(exts):
    return [exts[k] for k in ("atom", "atom10", "atom03") if exts and k in exts]


def atom_ext_value(exts, name):
    for m in atom_ext(exts):
        if m.get(name):
            return m[name][0].get("value", "")
    return ""


def atom_ext_child(exts, parent, child):
    for m in atom_ext(exts):
        if m.get(parent):
            cs = (m[parent][0].get("children") or {}).get(child)
            if cs:
                return cs[0].get("value", "")
    return ""


def rss_to_universal(f):
    dc = f.get("dcExt") or {}
    out = {"title": f.get("title") or first(dc.get("title")), "items": []}
    link = f.get("link", "")
    if not link:
        for m in atom_ext(f.get("extensions")):
            for l in m.get("link", []):
                rel = (l.get("attrs") or {}).get("rel", "")
                if rel in ("", "alternate"):
                    link = (l.get("attrs") or {}).get("href", "")
                    break
            if link:
                break
    out["link"] = link
    for i in f.get("items") or []:
        idc = i.get("dcExt") or {}
        it = i.get("itunesExt") or {}
        exts = i.get("extensions")
        item = {"title": i.get("title") or first(idc.get("title")), "link": i.get("link", "")}
        desc = i.get("description") or first(idc.get("description")) or it.get("summary", "")
        item["description"] = desc or atom_ext_value(exts, "summary")
        item["content"] = i.get("content") or atom_ext_value(exts, "content")
        # published / updated (parsed): pubDateParsed, else dc:date, else atom:published
        item["publishedParsed"] = i.get("pubDateParsed")
        item["published"] = i.get("pubDate") or first(idc.get("date")) or atom_ext_value(exts, "published")
        upd = first(idc.get("date")) or atom_ext_value(exts, "updated")
        item["updated"] = upd
        item["_needs_date_parse"] = not i.get("pubDateParsed")
        # author
        author = None
        if i.get("author"):
            author = person_from_text(i["author"])
        elif idc.get("author"):
            author = person_from_text(first(idc["author"]))
        elif idc.get("creator"):
            author = person_from_text(first(idc["creator"]))
        elif it.get("author"):
            author = person_from_text(it["author"])
        else:
            n, e = atom_ext_child(exts, "author", "name"), atom_ext_child(exts, "author", "email")
            if n or e:
                author = {"name": n, "email": e}
        item["authors"] = [author] if author else []
        item["guid"] = (i.get("guid") or {}).get("value", "")
        out["items"].append(item)
    return out


def atom_to_universal(f):
    def first_rel(links, rel):
        for l in links or []:
            if l.get("rel", "") == rel:
                return l.get("href", "")
        return ""

    out = {"title": f.get("title", ""), "link": first_rel(f.get("links"), "alternate"), "items": []}
    for e in f.get("entries") or []:
        item = {
            "title": e.get("title", ""),
            "description": e.get("summary", ""),
            "content": (e.get("content") or {}).get("value", ""),
            "guid": e.get("id", ""),
            "link": first_rel(e.get("links"), "alternate"),
            "publishedParsed": e.get("publishedParsed") or e.get("updatedParsed"),
            "updatedParsed": e.get("updatedParsed"),
            "published": e.get("published") or e.get("updated", ""),
            "authors": [{"name": p.get("name", ""), "email": p.get("email", "")} for p in e.get("authors") or []],
        }
        out["items"].append(item)
    return out


def parse_go_date_text(text):
    """Rough stand-in for shared.ParseDate for the dc:date / atom:published fallbacks (only
    used by parser/rss inputs, where gofeed's JSON does not carry the translated value)."""
    if not text:
        return None
    text = text.strip()
    iso = instant(text)
    if iso and not iso.startswith("unparsed:"):
        return iso
    from email.utils import parsedate_to_datetime
    try:
        d = parsedate_to_datetime(text)
        if d.tzinfo is None:
            d = d.replace(tzinfo=timezone.utc)
        return d.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except Exception:
        return "unparsed:" + text


def gofeed_view(universal, derived, base):
    items = []
    for i in universal.get("items") or []:
        date = i.get("publishedParsed") or i.get("updatedParsed")
        date = instant(date) if date else None
        raw_date = i.get("published") or i.get("updated") or ""
        if derived and not date and i.get("_needs_date_parse"):
            text = i.get("published") or i.get("updated")
            date = parse_go_date_text(text)
        authors = i.get("authors")
        if authors is None and i.get("author"):
            authors = [i["author"]]
        authors = authors or []
        items.append(
            {
                "title_raw": i.get("title") or None,
                "link": norm_link(i.get("link"), base),
                "id": (i.get("guid") or "").strip() or None,
                "date": date,
                "date_raw": raw_date or None,
                "author_names": [collapse(a.get("name")) for a in authors if collapse(a.get("name"))],
                "author_emails": [collapse(a.get("email")) for a in authors if collapse(a.get("email"))],
                "has_content": bool((i.get("content") or "").strip()),
                "has_description": bool((i.get("description") or "").strip()),
            }
        )
    return {
        "title_raw": universal.get("title") or None,
        "link": norm_link(universal.get("link"), base),
        "items": items,
    }


# ----------------------------------------------------------------------------------------------
# feedsite


def feedsite_run(feedsite, path):
    try:
        run = subprocess.run([feedsite, "parse", "--json", path], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, "timeout (10 s)"
    if run.returncode != 0:
        msg = (run.stderr or run.stdout).strip().splitlines()
        return None, "exit %d: %s" % (run.returncode, " | ".join(msg[-3:]))
    try:
        return json.loads(run.stdout), None
    except ValueError as e:
        return None, "bad JSON: %s" % e


def feedsite_view(feed, base):
    items = []
    for i in feed.get("items", []):
        authors = i.get("authors") or []
        items.append(
            {
                "title": collapse(i.get("title")),
                "link": norm_link(i.get("link"), base),
                "id": (i.get("id") or "").strip() or None,
                "date": instant(i.get("published") or i.get("updated")),
                "author_names": [collapse(a.get("name")) for a in authors if collapse(a.get("name"))],
                "author_emails": [collapse(a.get("email")) for a in authors if collapse(a.get("email"))],
                "has_content": bool((i.get("content") or "").strip()),
                "has_description": bool((i.get("description") or "").strip()),
            }
        )
    return {
        "title": collapse(feed.get("title")),
        "link": norm_link(feed.get("link"), base),
        "items": items,
        "warnings": feed.get("warnings", []),
        "format": feed.get("format"),
    }


# ----------------------------------------------------------------------------------------------


def title_matches(raw, ours):
    if raw is None:
        return ours is None
    return ours in (collapse(raw), plain(raw))


STATS = {}


def count(field, a, b):
    if a or b:
        STATS[field] = STATS.get(field, 0) + 1


def compare(g, f):
    count("feed.title", g["title_raw"], f["title"])
    count("feed.link", g["link"], f["link"])
    for a, b in zip(g["items"], f["items"]):
        count("item.title (gofeed has one)", a["title_raw"], None)
        for field in ("link", "id", "date", "author_names", "author_emails"):
            count("item." + field, a[field], b[field])
        count("item.body", a["has_content"] or a["has_description"], b["has_content"] or b["has_description"])
    STATS["items"] = STATS.get("items", 0) + len(g["items"])
    problems = []
    if not title_matches(g["title_raw"], f["title"]):
        problems.append(("feed.title", g["title_raw"], f["title"]))
    if g["link"] != f["link"]:
        problems.append(("feed.link", g["link"], f["link"]))
    if len(g["items"]) != len(f["items"]):
        problems.append(("item count", len(g["items"]), len(f["items"])))
    for n, (a, b) in enumerate(zip(g["items"], f["items"]), start=1):
        if a["title_raw"] is not None and not title_matches(a["title_raw"], b["title"]):
            problems.append(("item %d title" % n, a["title_raw"], b["title"]))
        for field in ("link", "id", "date", "author_names", "author_emails"):
            if a[field] != b[field]:
                extra = " (raw %r)" % a["date_raw"] if field == "date" and a["date_raw"] else ""
                problems.append(("item %d %s" % (n, field), a[field], b[field], extra))
        ga = a["has_content"] or a["has_description"]
        fa = b["has_content"] or b["has_description"]
        if ga != fa:
            problems.append(("item %d body present" % n, ga, fa))
        elif ga and (a["has_content"], a["has_description"]) != (b["has_content"], b["has_description"]):
            problems.append(("item %d content/description split" % n,
                             (a["has_content"], a["has_description"]), (b["has_content"], b["has_description"])))
    return problems


def inputs(testdata):
    out = []
    for kind in ("atom", "rss", "json"):
        d = os.path.join(testdata, "translator", kind)
        for name in sorted(os.listdir(d)):
            if kind == "json":
                if name.endswith("_expected.json"):
                    continue
                exp = os.path.join(d, name[:-5] + "_expected.json")
            else:
                if not name.endswith(".xml"):
                    continue
                exp = os.path.join(d, name[:-4] + ".json")
            if os.path.exists(exp):
                out.append(("translator/" + kind, os.path.join(d, name), exp))
    for kind in ("dublincore", "itunes", "media"):  # universal Feed JSON too (extensions_test.go)
        d = os.path.join(testdata, "extensions", kind)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            if name.endswith(".xml") and os.path.exists(os.path.join(d, name[:-4] + ".json")):
                out.append(("extensions/" + kind, os.path.join(d, name), os.path.join(d, name[:-4] + ".json")))
    for kind in ("atom", "rss"):
        d = os.path.join(testdata, "parser", kind)
        for name in sorted(os.listdir(d)):
            if name.endswith(".xml") and os.path.exists(os.path.join(d, name[:-4] + ".json")):
                out.append(("parser/" + kind, os.path.join(d, name), os.path.join(d, name[:-4] + ".json")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--feedsite", default=".build/release/feedsite")
    ap.add_argument("--testdata", required=True)
    ap.add_argument("--json", help="write every result as JSON here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    results = []
    agreed = 0
    for group, path, exp in inputs(args.testdata):
        with open(exp, encoding="utf-8") as h:
            expected = json.load(h)
        base = "file://" + urllib.parse.quote(os.path.abspath(path))
        if group == "parser/atom":
            uni, derived = atom_to_universal(expected), True
        elif group == "parser/rss":
            uni, derived = rss_to_universal(expected), True
        else:
            uni, derived = expected, False
        g = gofeed_view(uni, derived, base)
        feed, err = feedsite_run(args.feedsite, path)
        rel = os.path.relpath(path, args.testdata)
        if err:
            results.append({"file": rel, "error": err})
            print("ERROR   %s: %s" % (rel, err))
            continue
        f = feedsite_view(feed, base)
        problems = compare(g, f)
        results.append({"file": rel, "problems": [list(p) for p in problems], "warnings": f["warnings"]})
        if problems:
            print("DIFFER  %s" % rel)
            for p in problems:
                print("        %s: gofeed %r, feedsite %r%s" % (p[0], p[1], p[2], p[3] if len(p) > 3 else ""))
        else:
            agreed += 1
            if args.verbose:
                print("agree   %s" % rel)
    total = len(results)
    errors = sum(1 for r in results if "error" in r)
    print("\n%d inputs compared, %d agree, %d differ, %d feedsite errors" % (total, agreed, total - agreed - errors, errors))
    print("non-empty comparisons (either side has a value): " + ", ".join("%s %d" % kv for kv in sorted(STATS.items())))
    if args.json:
        with open(args.json, "w") as h:
            json.dump(results, h, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
