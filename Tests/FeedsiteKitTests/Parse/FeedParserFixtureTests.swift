import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse

/// What a real-world fixture must parse to. Every expected value was read from the file itself
/// (grep/sed/iconv, noted per fixture), never copied from the parser's output.
struct FixtureExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    /// The feed's final URL as the fetcher would pass it (relative links resolve against it).
    var url: String? = nil
    var format: Feed.Format
    var version: String
    var itemCount: Int
    var title: String
    var link: String?
    /// ISO 8601 UTC, or nil when the first item has no (parseable) date.
    var published: String?
    var authorName: String?
    var authorEmail: String? = nil
    var isTitleDerived = false
    /// The first item's image URL, checked when given.
    var image: String? = nil
    /// A substring one of the warnings must contain.
    var warning: String? = nil

    var testDescription: String { file }
}

@Suite struct FeedParserFixtureTests {
    static let expectations: [FixtureExpectation] = [
        // grep '<item' -A: <title>, <link>, <pubDate>Fri, 07 Jul 2017 11:06:10 +0000, <dc:creator><![CDATA[Natasha Murashev]]>; 10 `<item>`.
        .init(
            file: "wordpress-rss2-content-encoded.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "The Easiest Way to Get a URL for your Apple Wallet Passkit Pass",
            link: "https://www.natashatherobot.com/url-apple-wallet-passkit-pass/",
            published: "2017-07-07T11:06:10Z", authorName: "Natasha Murashev"),
        // CDATA title; <pubDate>Mon, 19 Nov 2018 08:10:26 GMT; dc:creator Hodl Hodl; 10 items.
        .init(
            file: "medium-rss2.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "Hodl Hodl closes funding round",
            link:
                "https://medium.com/@hodlhodl/hodl-hodl-closes-funding-round-417d97952d42?source=rss-b1f3d322dadf------2",
            published: "2018-11-19T08:10:26Z", authorName: "Hodl Hodl"),
        // <pubDate>Wed, 03 Feb 2021 12:00:47 GMT; dc:creator Emily Atkin; 1 item.
        .init(
            file: "substack-rss2.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "A conversation about Keystone XL", link: "https://heated.world/p/a-conversation-about-keystone-xl",
            published: "2021-02-03T12:00:47Z", authorName: "Emily Atkin"),
        // <pubDate>Thu, 14 Oct 2021 12:59:53 GMT; dc:creator Luke Valenta; 1 item.
        .init(
            file: "ghost-rss2.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "Privacy-Preserving Compromised Credential Checking",
            link: "https://blog.cloudflare.com/privacy-preserving-compromised-credential-checking/",
            published: "2021-10-14T12:59:53Z", authorName: "Luke Valenta"),
        // <link href="/2025/08/26/qemu-10-1-0/"> (root-relative: resolved against the feed URL);
        // <published>2025-08-26T23:25:00+00:00; <author><name></name></author> (empty: no author); 10 entries.
        .init(
            file: "jekyll-atom.xml", url: "https://www.qemu.org/feed.xml", format: .atom, version: "1.0", itemCount: 10,
            title: "QEMU version 10.1.0 released", link: "https://www.qemu.org/2025/08/26/qemu-10-1-0/",
            published: "2025-08-26T23:25:00Z", authorName: nil),
        // No <published>, only <updated>2020-01-19T16:08:59+11:00 (= 05:08:59Z); <name>markpritchard; 4 entries.
        .init(
            file: "github-releases-atom.xml", format: .atom, version: "1.0", itemCount: 4, title: "0.2.0",
            link: "https://github.com/feed-rs/feed-rs/releases/tag/v0.2.0", published: "2020-01-19T05:08:59Z",
            authorName: "markpritchard"),
        // <link rel="alternate" href=…watch?v=q-6oU3jXAho>, <published>2019-11-18T19:45:00+00:00; 14 entries.
        .init(
            file: "youtube-atom.xml", format: .atom, version: "1.0", itemCount: 14,
            title: "Can You Observe a Typical Universe?", link: "https://www.youtube.com/watch?v=q-6oU3jXAho",
            published: "2019-11-18T19:45:00Z", authorName: "PBS Space Time"),
        // <link href=…/> with no rel (counts as alternate); <published>2016-01-26T20:31:34+00:00; 24 entries.
        .init(
            file: "reddit-atom-xhtml.xml", format: .atom, version: "1.0", itemCount: 24,
            title: "How the British as seen by Americans and Europeans",
            link: "https://www.reddit.com/r/funny/comments/42tizy/how_the_british_as_seen_by_americans_and_europeans/",
            published: "2016-01-26T20:31:34Z", authorName: "/u/AngryRedditorsBelow"),
        // <pubDate>Thu, 31 Jan 2019 16:58:12 +0000; <dc:creator>Marco Arment beats <itunes:author>ATP; 100 items.
        .init(
            file: "podcast-itunes-squarespace-atp.xml", format: .rss, version: "2.0", itemCount: 100,
            title: "311: Mutually Assured Destruction", link: "http://atp.fm/episodes/311",
            published: "2019-01-31T16:58:12Z", authorName: "Marco Arment"),
        // RDF; items are siblings of <channel>; <link>…&amp;utm_medium=feed (decoded once);
        // first item <dc:date>2024-03-02T15:34:00+00:00; <dc:creator>EditorDavid; 15 <item rdf:about>.
        .init(
            file: "rdf-rss1-slashdot-latin1.xml", format: .rss, version: "1.0", itemCount: 15,
            title: "Ransomware Attack Hampers Prescription Drug Sales at 90% of US Pharmacies",
            link:
                "https://yro.slashdot.org/story/24/03/02/071229/ransomware-attack-hampers-prescription-drug-sales-at-90-of-us-pharmacies?utm_source=rss1.0mainlinkanon&utm_medium=feed",
            published: "2024-03-02T15:34:00Z", authorName: "EditorDavid"),
        // <pubDate>Tue, 02 Mar 2021 23:39:15 +0100; <author>jonas@insanity.industries (Jonas Große Sundrup); 2 items.
        .init(
            file: "hugo-rss2-item-xmlbase-raw-html-description.xml", format: .rss, version: "2.0", itemCount: 2,
            title: "Pareto-optimal compression", link: "https://insanity.industries/post/pareto-optimal-compression/",
            published: "2021-03-02T22:39:15Z", authorName: "Jonas Große Sundrup",
            authorEmail: "jonas@insanity.industries"),
        // feed xml:base='https://www.tbray.org/ongoing/ongoing.atom', entry xml:base='When/201x/2013/06/27/',
        // <link href='Air-Travel'/>; <published>2013-06-27T12:00:00-07:00; author only on the feed (inherited).
        .init(
            file: "atom-nested-xmlbase-tbray.xml", format: .atom, version: "1.0", itemCount: 1,
            title: "Rent-seeking for Nomads", link: "https://www.tbray.org/ongoing/When/201x/2013/06/27/Air-Travel",
            published: "2013-06-27T19:00:00Z", authorName: "Tim Bray"),
        // rel='alternate' link is the 7th link; <published>2007-12-14T23:15:00.000-08:00; <name>Anthony; 25 entries.
        .init(
            file: "blogger-atom.xml", format: .atom, version: "1.0", itemCount: 25,
            title: "4FSOD Documentary: Bloopers and Stuff",
            link: "http://4fsodonline.blogspot.com/2007/12/4fsod-documentary-bloopers-and-stuff.html",
            published: "2007-12-15T07:15:00Z", authorName: "Anthony"),
        // `od -c | head`: starts with "\n<?xml"; <pubDate>Wed, 02 Nov 2011 17:25:27 +0000; <dc:creator>Leena Rao; 20 items.
        .init(
            file: "wordpress-com-rss2-leading-newline.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "Angie’s List Sets Price Range IPO At $11 To $13 Per Share; Valued At Over $600M",
            link: "http://feedproxy.google.com/~r/Techcrunch/~3/kTeeGj4FnwU/", published: "2011-11-02T17:25:27Z",
            authorName: "Leena Rao"),
        // First <item> (line 20) has no <title>: <description>Good morning students and teachers! 🍏;
        // <pubDate>Mon, 26 Jun 2017 12:20:05 GMT; no author anywhere; 50 items.
        .init(
            file: "scripting-news-rss2-source-namespace.xml", format: .rss, version: "2.0", itemCount: 50,
            title: "Good morning students and teachers! 🍏", link: "http://scripting.com/2017/06/26.html#a080605",
            published: "2017-06-26T12:20:05Z", authorName: nil, isTitleDerived: true),
        // Netscape DOCTYPE (must not be fetched), <rss version="0.91">, ISO-8859-1 "unterstützen"; no dates; 3 items.
        .init(
            file: "rss091-latin1-netscape-doctype.xml", format: .rss, version: "0.91", itemCount: 3,
            title: "Mainsoft und IBM wollen Portierung auf Linux unterstützen",
            link: "http://www.pro-linux.de/news/2006/9148.html", published: nil, authorName: nil),
        // `&nbsp;` is undefined in XML (xmllint fails); <dc:date>2023-01-03T15:00:00Z; 1 item.
        .init(
            file: "html-entity-nbsp-undefined.xml", format: .rss, version: "2.0", itemCount: 1,
            title: "Snowflake is the DBMS of the Year 2022, defending the title from last year",
            link: "https://db-engines.com/en/blog_post/103", published: "2023-01-03T15:00:00Z",
            authorName: "Matthias Gelbmann, Paul Andlinger", warning: "repaired undefined entity &nbsp;"),
        // Bare `&` in <guid>…?utm_source=bolddk&utm_medium…; <pubDate>Thu, 14 Mar 2019 17:10:02 +0200;
        // <author>Sara Margren; 20 items.
        .init(
            file: "latin1-bare-ampersands.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "OB er uskarpe - Esbjerg er effektive",
            link: "https://www.bold.dk/fodbold/nyheder/ob-er-uskarpe--esbjerg-er-effektive/",
            published: "2019-03-14T15:10:02Z", authorName: "Sara Margren", warning: "repaired unescaped '&'"),
        // `head -c3 | od`: EF BB BF; <pubDate>Fri, 24 May 2019 00:00:00 -0700; 10 items.
        .init(
            file: "utf8-bom.xml", format: .rss, version: "2.0", itemCount: 10, title: "Skipping Around",
            link: "https://donthitsave.com/comic/2019/05/24/skipping-around", published: "2019-05-24T07:00:00Z",
            authorName: nil),
        // `iconv -f latin1`: title "…simulações de 2º turno"; <pubDate>Seg, 24 Set 2018 19:42:40 -0300 (Portuguese
        // names: 22:42:40Z); <rss> with no version attribute (2.0 assumed); 15 items.
        .init(
            file: "undeclared-latin1-no-prolog.xml", format: .rss, version: "2.0", itemCount: 15,
            title: "Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno",
            link:
                "https://noticias.uol.com.br/politica/eleicoes/2018/noticias/2018/09/24/ibope-bolsonaro-perde-de-haddad-ciro-e-alckmin-em-simulacoes-de-2-turno.htm",
            published: "2018-09-24T22:42:40Z", authorName: nil, warning: "read it as windows-1252"),
        // <rss xmlns="http://backend.userland.com/rss2">; `iconv -f windows-1251`: the title below;
        // <pubDate>Wed, 22 Jan 2014 20:31:31 +0600; 10 items.
        .init(
            file: "windows-1251-userland-default-namespace.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "В Бузулуке главные стройплощадки – детсад и Ледовый дворец",
            link: "http://www.oren.ru/news/2743422/",
            published: "2014-01-22T14:31:31Z", authorName: nil),
        // python json.load: version …/1.1, 20 items; first: date_published 2020-02-21T18:08:06+01:00,
        // authors[0].name "Frank Boës".
        .init(
            file: "jsonfeed-1.1-authors-language.json", format: .json, version: "1.1", itemCount: 20,
            title: "Lecker, lecker", link: "https://journal.3960.org/posts/2020-02-21-lecker-lecker/",
            published: "2020-02-21T17:08:06Z", authorName: "Frank Boës"),
        // Relative `<link rel="alternate" href="/livewire/…">`, no xml:base (grep -c xml:base: 0), resolved against
        // the rel=self URL; <published>2017-11-08T18:15:58-05:00; <name>Esme Cribb; 20 <entry>.
        .init(
            file: "atom-relative-links-tpm.xml", url: "http://talkingpointsmemo.com/account/feed/all/x",
            format: .atom, version: "1.0", itemCount: 20,
            title: "Hannity Announces Fox Has Hired Sebastian Gorka As NatSec Strategist",
            link:
                "http://talkingpointsmemo.com/livewire/hannity-announces-fox-hired-sebastian-gorka-national-security-strategist",
            published: "2017-11-08T23:15:58Z", authorName: "Esme Cribb"),
        // <link href="/notes/thoughts-about-prolog.html"/>; <published>2025-01-17T00:00:00Z; only the feed has
        // <author><name>Jakub Alba (yakubin)</name> (line 8, inherited); 12 entries.
        .init(
            file: "atom-very-large-relative-links.xml", url: "https://yakubin.com/notes/atom.xml", format: .atom,
            version: "1.0", itemCount: 12, title: "Thoughts about Prolog",
            link: "https://yakubin.com/notes/thoughts-about-prolog.html", published: "2025-01-17T00:00:00Z",
            authorName: "Jakub Alba (yakubin)"),
        // No <published>: <updated>2012-07-16T08:48:01-07:00; feed <author> Sam Ruby / rubys@intertwingly.net
        // (lines 11–13, inherited); <link href="/blog/2012/07/16/Inhibiting-Suspend"/>; 20 entries.
        .init(
            file: "atom-xhtml-relative-urls-intertwingly.xml", url: "http://intertwingly.net/blog/index.atom",
            format: .atom, version: "1.0", itemCount: 20, title: "Inhibiting Suspend",
            link: "http://intertwingly.net/blog/2012/07/16/Inhibiting-Suspend", published: "2012-07-16T15:48:01Z",
            authorName: "Sam Ruby", authorEmail: "rubys@intertwingly.net"),
        // <?xml-stylesheet?> PI before <feed>; absolute rel=alternate href; <published>2026-05-24T13:02:30+02:00;
        // feed <author><name>Andrea Pappacoda (line 10, inherited); 3 entries.
        .init(
            file: "atom-xhtml-xmlbase-stylesheet-pi.atom", format: .atom, version: "1.0", itemCount: 3,
            title: "Le favicon non sono difficili", link: "https://andrea.pappacoda.it/blog/favicon_2026/",
            published: "2026-05-24T11:02:30Z", authorName: "Andrea Pappacoda"),
        // Whole file on one line; <pubDate>Wed, 20 Dec 2006 21:42:06 +0000; <author>ak (no email); 8 <item>.
        .init(
            file: "blogger-rss2-2006-single-line.xml", format: .rss, version: "2.0", itemCount: 8, title: "Teh Saxxi",
            link: "http://aksmoblog.blogspot.com/2006/12/teh-saxxi.html", published: "2006-12-20T21:42:06Z",
            authorName: "ak"),
        // `head -c 60`: `<?phpxml version="1.0" …?>`, a PI instead of the declaration; UTF-8 title with a trailing newline (trimmed);
        // <pubDate>Mon, 06 Sep 2021 12:17:00 +0200; <author>webmaster@fcutrecht.net (email only); 20 items.
        .init(
            file: "bogus-pi-instead-of-xml-declaration.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "Serdar Gözübüyük scheidsrechter bij FC Twente - FC Utrecht",
            link: "https://www.fcutrecht.net/nieuws/serdar-g-z-b-y-k-scheidsrechter-bij-fc-twente-fc-utrecht~8805",
            published: "2021-09-06T10:17:00Z", authorName: nil, authorEmail: "webmaster@fcutrecht.net"),
        // CDATA title padded with newlines (trimmed); <pubDate>Thu, 17 Dec 2020 22:00:09 +0800; no author; 30 items.
        .init(
            file: "chinese-utf8-large.xml", format: .rss, version: "2.0", itemCount: 30,
            title: "充电桩 2020：大火一年，它依然没赚到钱（！）", link: "http://www.geekpark.net/news/271342",
            published: "2020-12-17T14:00:09Z", authorName: nil),
        // `iconv -f gb18030`: title and <author>大鱼儿; <pubDate>2020/1/10 14:33:00 (no zone: UTC assumed);
        // <link>…&amp;ID=… decoded once; 20 items.
        .init(
            file: "gb2312-declared.xml", format: .rss, version: "2.0", itemCount: 20, title: "建国35周年纪念，华表，和平鸽",
            link: "http://www.kc0011.net/dispbbs.asp?BoardID=10&ID=25164257&Page=1", published: "2020-01-10T14:33:00Z",
            authorName: "大鱼儿"),
        // <pubDate>Wed, 31 Jan 2018 07:26:05 GMT (beats the equal <dc:date>); <dc:creator>David Smith in Washington;
        // 55 items.
        .init(
            file: "guardian-rss2-media-dc-creator.xml", format: .rss, version: "2.0", itemCount: 55,
            title: "Trump State of the Union address promised unity but emphasized discord",
            link:
                "https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord",
            published: "2018-01-31T07:26:05Z", authorName: "David Smith in Washington"),
        // <title type="html">37 &amp;#8211; Spectre…: XML decode gives HTML `&#8211;`, the title decodes it to "–";
        // <published>2018-02-15T04:47:18Z; <name>ENOTTY; 30 entries.
        .init(
            file: "hackernews-hnapp-atom.xml", format: .atom, version: "1.0", itemCount: 30,
            title: "37 – Spectre Mitigations in Microsoft's C/C++ Compiler",
            link: "https://www.paulkocher.com/doc/MicrosoftCompilerSpectreMitigation.html",
            published: "2018-02-15T04:47:18Z", authorName: "ENOTTY"),
        // `grep -n '&uuml;'`: line 97; <pubDate>Sun, 25 Sep 2022 01:02:33 -0700; no author elements; 20 items.
        .init(
            file: "html-entity-uuml-undefined.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "'Itou Junji: Maniac' Unveils Main Staff, Additional Cast, January 19 Premiere",
            link: "https://myanimelist.net/news/67553378?_location=rss", published: "2022-09-25T08:02:33Z",
            authorName: nil, warning: "line 97: repaired undefined entity &uuml;"),
        // <pubDate>Wed, 28 Sep 2016 22:57:21 +0200; no author; 15 items.
        .init(
            file: "hugo-rss2.xml", format: .rss, version: "2.0", itemCount: 15, title: "Rebooting on wrong password",
            link: "https://cowboyprogrammer.org/2016/09/reboot_machine_on_wrong_password/",
            published: "2016-09-28T20:57:21Z", authorName: nil),
        // 20 `<item` tags, 10 of them empty `<item />` nested in real ones; <pubDate>Wed, 17 Jan 2018 15:50:00 EST.
        .init(
            file: "illegally-nested-items.xml", format: .rss, version: "2.0", itemCount: 10,
            title: "My Professional Armchair Analysis of CES",
            link: "http://feedproxy.google.com/~r/ziffdavis/pcmag/dvorak/~3/0O-eUfOYo94/0,2817,2525649,00.asp",
            published: "2018-01-17T20:50:00Z", authorName: nil),
        // `xmlns:feedburner\n=`; <link>…vnNsA4Hdk6U/</link\n> (newline inside the end tag);
        // <pubDate>Fri, 25 Sep 2009 10:00:00 +0800; 4 items.
        .init(
            file: "invalid-namespace-uri.xml", format: .rss, version: "2.0", itemCount: 4,
            title: "Single-Session Primary Schools",
            link: "http://feedproxy.google.com/~r/singapore-education/spotlight/~3/vnNsA4Hdk6U/",
            published: "2009-09-25T02:00:00Z", authorName: nil),
        // python json.load: version …/1, 48 items; url (not external_url), date_published 2017-06-27T00:54:17Z,
        // author.name John Gruber.
        .init(
            file: "jsonfeed-1.0-daringfireball.json", format: .json, version: "1.0", itemCount: 48,
            title: "The Talk Show: ‘I Do Like Throwing a Baby’",
            link: "https://daringfireball.net/linked/2017/06/26/the-talk-show-195", published: "2017-06-27T00:54:17Z",
            authorName: "John Gruber"),
        // python json.load: 20 items; date_published 2017-06-02T22:05:47-07:00; no item author, feed author
        // Brent Simmons (inherited, JSON Feed §author).
        .init(
            file: "jsonfeed-1.0-inessential.json", format: .json, version: "1.0", itemCount: 20,
            title: "James Dempsey and the Breakpoints Benefit App Camp for Girls",
            link: "http://inessential.com/2017/06/02/james_dempsey_and_the_breakpoints_benefi",
            published: "2017-06-03T05:05:47Z", authorName: "Brent Simmons"),
        // python json.load: 26 items; date_published "2018-01-06T08:00" (no zone: UTC); feed author Curt Clifton.
        .init(
            file: "jsonfeed-1.0-minified-escaped-slashes.json", format: .json, version: "1.0", itemCount: 26,
            title: "Twitter Quitter", link: "http://www.curtclifton.net/twitter-quitter",
            published: "2018-01-06T08:00:00Z", authorName: "Curt Clifton"),
        // python json.load: version …/1.1, 30 items; date_published 2025-01-05T20:40:00-05:00;
        // authors[0].name "Author: Luke, most likely.".
        .init(
            file: "jsonfeed-1.1-escaped-slashes.json", format: .json, version: "1.1", itemCount: 30,
            title: "New Font", link: "https://lukedorny.com/updates/new-font", published: "2025-01-06T01:40:00Z",
            authorName: "Author: Luke, most likely."),
        // encoding="ISO-8859-1"; <pubDate>Sat, 09 Dec 2017 15:44:00 +0100; no author; 40 items.
        .init(
            file: "latin1-declared-golem.xml", format: .rss, version: "2.0", itemCount: 40,
            title: "Anheuser Busch: US-Brauerei bestellt 40 Tesla-Trucks vor",
            link:
                "https://www.golem.de/news/anheuser-busch-us-brauerei-bestellt-40-tesla-trucks-vor-1712-131577-rss.html",
            published: "2017-12-09T14:44:00Z", authorName: nil),
        // `head -3 | od -c`: blank lines, no declaration; <pubDate>Tue, 28 Nov 2017 15:40:00 -0800;
        // <author>Christopher Null (beats the equal dc:creator); 30 items.
        .init(
            file: "no-prolog-leading-blank-lines.xml", format: .rss, version: "2.0", itemCount: 30,
            title: "Best smart lock",
            link: "https://www.techhive.com/article/3212828/connected-home/best-smart-lock.html#tk.rss_all",
            published: "2017-11-28T23:40:00Z", authorName: "Christopher Null"),
        // CDATA title "1.4. Et les réseaux sociaux ?"; <pubDate>Mon, 18 Nov 2019 09:25:45 GMT; <dc:creator>Framasoft;
        // media:thumbnail url=…ed5c048d….jpg; 20 items.
        .init(
            file: "peertube-rss2-media.xml", format: .rss, version: "2.0", itemCount: 20,
            title: "1.4. Et les réseaux sociaux ?",
            link: "https://framatube.org/videos/watch/ed5c048d-01f3-4ceb-97db-6e278de512b0",
            published: "2019-11-18T09:25:45Z", authorName: "Framasoft",
            image: "https://framatube.org/static/thumbnails/ed5c048d-01f3-4ceb-97db-6e278de512b0.jpg"),
        // grep -c '<item': 730; <pubDate>Tue, 01 Oct 2019 14:30:00 PST (-8); only <itunes:author>Giant Bomb.
        .init(
            file: "podcast-itunes-very-large.xml", format: .rss, version: "2.0", itemCount: 730,
            title: "Giant Bombcast 603: Call of Tuesday",
            link: "https://www.giantbomb.com/shows/603-call-of-tuesday/2970-19653/free-podcast",
            published: "2019-10-01T22:30:00Z", authorName: "Giant Bomb"),
        // <pubDate>Fri, 13 Feb 2015 22:38:52 +0000; only <itunes:author>Metaebene Personal Media - Tim Pritlove;
        // 30 items.
        .init(
            file: "podcast-podlove-large.xml", format: .rss, version: "2.0", itemCount: 30, title: "CRE207 Planetarien",
            link: "http://feedproxy.google.com/~r/cre-podcast/~3/8l3cmSSJErA/cre207-planetarien",
            published: "2015-02-13T22:38:52Z", authorName: "Metaebene Personal Media - Tim Pritlove"),
        // RDF without declaration; CDATA title and <link> padded with newlines (trimmed); <dc:date>2019-08-27
        // (date only: midnight UTC); <dc:creator><![CDATA[ Kaur, M., … ]]> (trimmed); 30 items.
        .init(
            file: "rdf-rss1-biorxiv-no-prolog.rdf", format: .rss, version: "1.0", itemCount: 30,
            title:
                "Wheat inositol pyrophosphate kinase (TaVIH2-3B) interacts with Fasciclin-like arabinogalactan (FLA6) protein and alters the plant cell-wall composition",
            link: "http://biorxiv.org/cgi/content/short/743294v1?rss=1", published: "2019-08-27T00:00:00Z",
            authorName:
                "Kaur, M., Shukla, A., Kanwar, S., Shukla, V., Kaur, G., Sharma, S., Kumar, A., Aggarwal, S., Bhati, K. K., Pandey, P., Mazumder, K., Rishi, V., Pandey, A. K."
        ),
        // CDATA title with HTML `&#x0024;` and `<sup>2</sup>` (plain title: "$", markup stripped);
        // <dc:date>2017-06-21T10:33:10-07:00; no creator; 25 items.
        .init(
            file: "rdf-rss1-craigslist.xml", format: .rss, version: "1.0", itemCount: 25,
            title: "Bright, Spacious Beautiful Victorian (oakland north / temescal) $4300 3bd 1930ft2",
            link: "http://sfbay.craigslist.org/eby/apa/6186664607.html", published: "2017-06-21T17:33:10Z",
            authorName: nil),
        // `iconv -f euc-jp`: title "2005-09-06のツッコミ[6] (麻生)", <dc:creator>麻生; <dc:date>2006-08-19T22:25:24+09:00;
        // 15 items.
        .init(
            file: "rdf-rss1-euc-jp-tdiary.rdf", format: .rss, version: "1.0", itemCount: 15,
            title: "2005-09-06のツッコミ[6] (麻生)", link: "http://tdiary.ishinao.net/20050906.html#c06",
            published: "2006-08-19T13:25:24Z", authorName: "麻生"),
        // python html.unescape of the numeric-reference title (its double space collapses); no date or author; 3 items.
        .init(
            file: "rdf-rss1-shift-jis-2ch.xml", format: .rss, version: "1.0", itemCount: 3,
            title: "1：▼つω・。▼ ◆Q2Ql4Ejios ＠涙のバレンタインφ ★",
            link: "http://rss.s2ch.net/test/-/stats.2ch.net/top10news/1155970287/1", published: nil, authorName: nil),
        // <rss version="0.91">, ISO-8859-1; first item's <link> absolute (a later one is relative); no dates; 3 items.
        .init(
            file: "rss091-latin1-relative-item-link.xml", format: .rss, version: "0.91", itemCount: 3,
            title: "\"Kein Vergleich zu Mai 68\"", link: "http://www.zeit.de/online/2006/12/frankreich", published: nil,
            authorName: nil),
        // `iconv -f latin1`: <title><![CDATA[Päuschen (auf der Rixdorfer Bühne)]]>; no date; 1 item.
        .init(
            file: "rss092-latin1-cdata-single-line.xml", format: .rss, version: "0.92", itemCount: 1,
            title: "Päuschen (auf der Rixdorfer Bühne)",
            link: "http://www.schockwellenreiter.de/2006/03/16.html#puschenaufDerRixdorferBhne", published: nil,
            authorName: nil),
        // Items have only <description> + <enclosure>: no title (derived from "It&apos;s been a few days since I
        // added a song to…"), no link, no date; 22 items.
        .init(
            file: "rss092-userland-enclosures.xml", format: .rss, version: "0.92", itemCount: 22,
            title: "It's been a few days since I added a song…", link: nil, published: nil, authorName: nil,
            isTitleDerived: true),
        // <published>2014-04-30T08:00:00-05:00 (beats <updated>2014-04-30T13:00:00Z, here the same instant); <name>Alex Steers McCrum; 10 entries.
        .init(
            file: "typepad-feedburner-atom-xhtml.xml", format: .atom, version: "1.0", itemCount: 10,
            title: "Stock Watch: April's Finest",
            link:
                "http://feedproxy.google.com/~r/RotoAuthorityFantasyBaseball/~3/oAyOtW4WnU4/stock-watch-aprils-finest.html",
            published: "2014-04-30T13:00:00Z", authorName: "Alex Steers McCrum"),
        // Urdu CDATA title (python decode utf-8); <pubDate>Fri, 05 Jan 2018 16:51:00 GMT;
        // <media:thumbnail url=…_99478824_gettyimages-856735580.jpg/>; 26 items.
        .init(
            file: "urdu-rtl-utf8.xml", format: .rss, version: "2.0", itemCount: 26,
            title: "امریکی عسکری امداد کی بندش کی وجوہات: انڈیا سے جنگ، جوہری پروگرام اور اب دہشت گردوں کی پشت پناہی",
            link: "http://www.bbc.com/urdu/pakistan-42575603", published: "2018-01-05T16:51:00Z", authorName: nil,
            image: "http://c.files.bbci.co.uk/A787/production/_99478824_gettyimages-856735580.jpg"),
        // `iconv -f windows-1251`: "Цитата #17703"; <pubDate>Wed, 21 Mar 2018 10:27:32 +0300; 50 items.
        .init(
            file: "windows-1251-declared.xml", format: .rss, version: "2.0", itemCount: 50, title: "Цитата #17703",
            link: "http://ibash.org.ru/quote.php?id=17703", published: "2018-03-21T07:27:32Z", authorName: nil),
        // <title type="html">Link: <![CDATA[Pillow Fight…]]>; rel=alternate href with `&amp;` decoded once;
        // <published>2015-09-08T14:21:41Z; <name>Paul Kafasis; 25 entries.
        .init(
            file: "wordpress-atom.xml", format: .atom, version: "1.0", itemCount: 25,
            title: "Link: Pillow Fight Leaves 24 Concussed",
            link:
                "http://www.nytimes.com/2015/09/05/us/at-west-point-annual-pillow-fight-becomes-weaponized.html?mwrsm=Email&_r=1&pagewanted=all",
            published: "2015-09-08T14:21:41Z", authorName: "Paul Kafasis"),
        // grep -c '<item>': 100; <pubDate>Tue, 24 Jan 2023 22:12:39 +0000; <dc:creator><![CDATA[brian]]>.
        .init(
            file: "wordpress-rss2-excerpt-only-100-items.xml", format: .rss, version: "2.0", itemCount: 100,
            title: "Protected: How to Start a Second Podcast",
            link: "https://rss.com/blog/how-to-start-a-second-podcast/",
            published: "2023-01-24T22:12:39Z", authorName: "brian"),
    ]

    @Test(arguments: expectations)
    func parsesRealFeed(_ expected: FixtureExpectation) throws {
        let data = try Fixtures.data("real-feeds/" + expected.file)
        let feed = try FeedParser().parse(data, url: expected.url.flatMap(URL.init(string:)))
        #expect(feed.format == expected.format)
        #expect(feed.version == expected.version)
        #expect(feed.items.count == expected.itemCount)
        let first = try #require(feed.items.first)
        #expect(first.title == expected.title)
        #expect(first.isTitleDerived == expected.isTitleDerived)
        #expect(first.link == expected.link)
        #expect(first.published == expected.published.flatMap(Self.instant))
        #expect(first.authors.first?.name == expected.authorName)
        if let email = expected.authorEmail { #expect(first.authors.first?.email == email) }
        if let image = expected.image { #expect(first.image?.url == image) }
        if let warning = expected.warning {
            #expect(feed.warnings.contains { $0.contains(warning) }, "warnings: \(feed.warnings)")
        }
    }

    /// An ISO 8601 UTC string → instant, through Foundation (independent of `FeedDate`).
    static func instant(_ iso: String) -> Date? {
        ISO8601DateFormatter().date(from: iso)
    }

    // The IIS "Object Moved" page (`cat`: `<head><title>Document Moved</title></head>` on line 1).
    @Test func rejectsHTMLPage() throws {
        let data = try Fixtures.data("real-feeds/not-a-feed-iis-object-moved.rss")
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(data, url: nil) }
        #expect(error?.line == 1)
        #expect(error?.description.hasPrefix("line 1, column 1: the document is an HTML page, not a feed") == true)
    }

    // `tail -c 200`: the file stops mid-string inside its third item (`grep -o '"id"'`: three);
    // the two before the cut are read, as an XML feed cut off keeps its complete items.
    @Test func readsTruncatedJSONFeedUpToTheCut() throws {
        let data = try Fixtures.data("real-feeds/jsonfeed-truncated-invalid.json")
        let feed = try FeedParser().parse(data, url: nil)
        #expect(
            feed.items.map(\.id) == [
                "http://leancrew.com/all-this/2017/11/last-thoughts-on-modifier-keys/",
                "http://leancrew.com/all-this/2017/11/my-next-mac/",
            ])
        #expect(
            feed.warnings.contains(
                "line 2: the document ends in the middle of item 3 (cut off): the 2 items before it are read; the one cut in half is dropped"
            ))
    }

    /// JavaScript's `JSON.stringify` writes half an emoji as a lone `\\uD83D` when a string was cut
    /// between its halves; `JSONSerialization` rejected the whole feed for it.
    @Test("a JSON Feed with lone surrogate escapes is read, each as U+FFFD, with a warning; pairs and \\\\u stay")
    func loneSurrogatesAreReplaced() throws {
        let json = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J",
             "items": [{"id": "1", "title": "Smile \ud83d", "content_text": "ok \ud83d\ude00 \ude00 \\ud83d"}]}
            """#
        let feed = try FeedParser().parse(Data(json.utf8), url: nil)
        #expect(feed.items.map(\.title) == ["Smile \u{FFFD}"])
        #expect(feed.items.first?.content == "ok \u{1F600} \u{FFFD} \\ud83d")
        #expect(
            feed.warnings == [
                "line 2: 2 \\u escapes of half a character (a UTF-16 surrogate without its pair: text cut in the"
                    + " middle of an emoji) read as U+FFFD"
            ])
        // A number beyond a Double is read as its text; the error's own text is cut: it may quote
        // the document (here the number, when something else is wrong too).
        let digits = "1" + String(repeating: "0", count: 100_000)
        let number = #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "# + digits + "}]}"
        let huge = try FeedParser().parse(Data(number.utf8), url: nil)
        #expect(huge.items.first?.id == digits)
        #expect(huge.warnings.first?.hasSuffix(" (100001 digits)) as text") == true)
        let broken = number.replacingOccurrences(of: "}]}", with: ", x}]}")
        let error = #expect(throws: FeedParseError.self) { try FeedParser().parse(Data(broken.utf8), url: nil) }
        #expect((error?.message.count ?? .max) < 300, "\(error?.message.prefix(300) ?? "")")
    }

    /// Every fixture file has an expectation above, or a test of its own (the two broken ones).
    @Test func everyFixtureIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("real-feeds").path).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".md")
        }
        let covered = Set(Self.expectations.map(\.file)).union([
            "not-a-feed-iis-object-moved.rss", "jsonfeed-truncated-invalid.json",
        ])
        #expect(names.count == 59)
        #expect(Set(names).subtracting(covered).sorted() == [])
    }

    /// Every fixture but the page that is not a feed parses, with at least one item (the cut-off
    /// JSON Feed too).
    @Test func parsesEveryOtherFixture() throws {
        let directory = Fixtures.url("real-feeds")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".md") && $0 != "not-a-feed-iis-object-moved.rss"
        }
        #expect(names.count >= 50)
        for name in names.sorted() {
            let data = try Fixtures.data("real-feeds/" + name)
            do {
                let feed = try FeedParser().parse(data, url: URL(string: "https://example.org/feed"))
                #expect(!feed.items.isEmpty, "\(name): no items")
                #expect(!feed.title.isEmpty, "\(name): no title")
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }

    /// `FeedParser` is a `Sendable` value with no shared state: parsing in parallel tasks gives the
    /// same results as parsing one at a time.
    @Test func parsesConcurrently() async throws {
        let files = Self.expectations.map(\.file)
        let inputs = try files.map { try Fixtures.data("real-feeds/" + $0) }
        let sequential = inputs.map { try? FeedParser().parse($0, url: nil) }
        let concurrent = await withTaskGroup(of: (Int, Feed?).self) { group in
            for (index, data) in inputs.enumerated() {
                group.addTask { (index, try? FeedParser().parse(data, url: nil)) }
            }
            var results = [Feed?](repeating: nil, count: inputs.count)
            for await (index, feed) in group { results[index] = feed }
            return results
        }
        #expect(concurrent == sequential)
        #expect(!sequential.contains(nil))
    }

    // Items in illegally-nested-items.xml each contain an empty `<item />` (grep: 20 tags, 10 real items).
    @Test func ignoresNestedItems() throws {
        let feed = try FeedParser().parse(Fixtures.data("real-feeds/illegally-nested-items.xml"), url: nil)
        #expect(feed.items.count == 10)
    }

    // jekyll-atom.xml: `<content type="html" xml:base="/2025/08/26/qemu-10-1-0/">` — a relative xml:base
    // resolved against the feed URL becomes the item's content base.
    @Test func relativeXMLBaseOnContentBecomesContentBase() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/jekyll-atom.xml"), url: URL(string: "https://www.qemu.org/feed.xml"))
        #expect(feed.items.first?.contentBase == "https://www.qemu.org/2025/08/26/qemu-10-1-0/")
    }

    // hugo-rss2-item-xmlbase: `<description>Everyone wants … <em>is</em> good compression? …</description>`
    // (naked child markup) arrives as HTML text.
    @Test func nakedMarkupInRealDescription() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/hugo-rss2-item-xmlbase-raw-html-description.xml"), url: nil)
        #expect(
            feed.items.first?.description
                == "Everyone wants good compression. But what exactly <em>is</em> good compression? Time for a closer look."
        )
        #expect(feed.items.first?.contentBase == "https://insanity.industries/post/pareto-optimal-compression/")
    }

    // reddit: `<content type="xhtml" xml:base="/.rss?limit=50"><div xmlns=…><table>…` — wrapper div removed.
    @Test func atomXHTMLContentFromReddit() throws {
        let feed = try FeedParser().parse(
            Fixtures.data("real-feeds/reddit-atom-xhtml.xml"), url: URL(string: "https://www.reddit.com/.rss"))
        let item = try #require(feed.items.first)
        #expect(item.content?.hasPrefix("<table><tr><td><a href=") == true)
        #expect(item.contentKind == .html)
        #expect(item.contentBase == "https://www.reddit.com/.rss?limit=50")
        #expect(item.categories == ["/r/funny"])
    }

    // podcast-itunes-squarespace-atp.xml: `<enclosure url="http://traffic.libsyn.com/atpfm/atp311.mp3"
    // length="54919661" type="audio/mpeg"/>` in the first item.
    @Test func podcastEnclosure() throws {
        let feed = try FeedParser().parse(Fixtures.data("real-feeds/podcast-itunes-squarespace-atp.xml"), url: nil)
        #expect(
            feed.items.first?.enclosures.first
                == Enclosure(url: "http://traffic.libsyn.com/atpfm/atp311.mp3", length: 54_919_661, type: "audio/mpeg"))
    }
}
