import FeedsiteShared
import Foundation
import Testing

@testable import FeedsiteKit
@testable import FeedsiteParse
@testable import FeedsiteSanitise

/// The state file and its index: one JSON path (`JSONEncoder`/`JSONDecoder`), atomic saves, a load
/// that decodes each feed's items only when asked, and nothing unreadable ever overwritten.
@Suite("State store")
struct StateStoreTests {
    /// The version 2 file as plain `Codable` sees it.
    struct Shape: Decodable {
        var version: Int
        var feeds: [String: FeedState]
        var items: [String: [StoredItem]]
    }

    @Test(
        "a state.json is feedsite's when it starts as its state does or is damaged; JSON of another shape is not",
        arguments: [
            (#"{"feeds":{},"version":2}"#, true), ("{\n  \"version\" : 2 }", true), ("", true), ("{not json", true),
            ("\u{0}\u{1}garbage", true), (#"{"name":"my app","version":"1.2.0"}"#, false), ("[1, 2]", false),
        ])
    func ownStateFile(content: String, isOwn: Bool) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString).json")
        try Data(content.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(StateStore.startsAsState(file.path) == isOwn, "\(content.debugDescription)")
        #expect(!StateStore.startsAsState("/dev/null/none"))
    }

    @Test("a state goes through the file unchanged; the file is plain JSON of version 2's shape")
    func roundTrip() throws {
        let state = StateSamples.state(feeds: 3, items: 4)
        let data = StateStore.encode(state)
        let (decoded, warnings) = StateStore.decode(data, origin: "test", trusted: true)
        #expect(warnings == [])
        #expect(decoded == state)

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.userInfo[SanitisedHTML.isTrustedKey] = true
        let shape = try decoder.decode(Shape.self, from: data)
        #expect(shape.version == 2)
        #expect(shape.feeds.keys.sorted() == state.feeds.keys.sorted())
        #expect(shape.feeds.values.allSatisfy { $0.items.isEmpty })
        #expect(shape.items["https://blog1.example/feed.xml"] == state.feeds["https://blog1.example/feed.xml"]?.items)
        // Equal states are equal files (sorted keys: nothing depends on hashing order).
        #expect(StateStore.encode(decoded) == data)
        #expect(String(decoding: data.prefix(10), as: UTF8.self) == #"{"feeds":{"#)
    }

    @Test(
        "a feed given twice in a hand-edited state (even spelt with escapes) is said, not silently lost",
        arguments: [#""https://blog0.example/feed.xml":[],"#, #""https:\/\/blog0.example\/feed.xml":[],"#])
    func repeatedFeedKeys(extra: String) throws {
        let state = StateSamples.state(feeds: 2, items: 3)
        let text = String(decoding: StateStore.encode(state), as: UTF8.self)
        // An empty list of blog0's items before its real one: the decoder keeps the first.
        let edited = text.replacingOccurrences(of: #""items":{"#, with: #""items":{"# + extra)
        #expect(edited != text)
        let (_, warnings) = StateStore.decode(Data(edited.utf8), origin: "state.json", trusted: true)
        #expect(
            warnings == [
                #"state.json: feed "https://blog0.example/feed.xml" is given more than once in 'items'; only the first list of its items was read"#
            ])
        let twiceInFeeds = text.replacingOccurrences(
            of: #"{"feeds":{"#, with: #"{"feeds":{"https://blog1.example/feed.xml":{},"#)
        let (_, feedWarnings) = StateStore.decode(Data(twiceInFeeds.utf8), origin: "state.json", trusted: true)
        #expect(
            feedWarnings.contains {
                $0.contains(#"feed "https://blog1.example/feed.xml" is given more than once in 'feeds'"#)
            })
        #expect(StateFile.repeatedRecordKeys(in: StateStore.encode(state)).isEmpty)
    }

    @Test("untrusted state has its HTML sanitised again while it is decoded")
    func untrustedHTML() throws {
        var state = StateSamples.state(feeds: 1, items: 1)
        let url = "https://blog0.example/feed.xml"
        state.feeds[url]?.items[0].item.content = SanitisedHTML(html: "<p>hi</p><script>alert(1)</script>")
        let data = StateStore.encode(state)
        let (trusted, _) = StateStore.decode(data, origin: "test", trusted: true)
        let (untrusted, _) = StateStore.decode(data, origin: "test", trusted: false)
        #expect(trusted.feeds[url]?.items.first?.item.content.html.contains("<script>") == true)
        #expect(untrusted.feeds[url]?.items.first?.item.content.html == "<p>hi</p>\n")
    }

    @Test("saving writes state.json and its index; loading decodes items only when they are asked for")
    func lazyLoad() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        let state = StateSamples.state(feeds: 3, items: 5)
        let digest = try store.save(state)
        #expect(StateSamples.names(in: folder) == ["state-index.json", "state.json"])
        #expect(try Data(contentsOf: store.file) == StateStore.encode(state))
        var fingerprint = BuildFingerprint()
        fingerprint.add(try Data(contentsOf: store.file))
        #expect(digest == fingerprint.text)

        let (loaded, warnings) = store.load(now: StateSamples.now)
        #expect(warnings == [])
        var saved = try #require(loaded)
        #expect(saved.digest == digest)
        #expect(saved.state.feeds.count == 3)
        #expect(saved.state.feeds.values.allSatisfy { $0.items.isEmpty })
        #expect(saved.itemCounts == Dictionary(uniqueKeysWithValues: state.feeds.keys.map { ($0, 5) }))
        #expect(saved.state.feeds["https://blog2.example/feed.xml"]?.etag == "\"v2\"")

        // A 304 whose dropped item (post 4, first seen 4 hours before `now`) is young keeps its items on disk.
        let source = FeedSource(url: try #require(URL(string: "https://blog1.example/feed.xml")))
        let run = FeedRun(source: source, outcome: .notModified)
        let young = saved.needsItems(for: run, horizon: StateSamples.now.addingTimeInterval(-30 * 86_400))
        let aged = saved.needsItems(for: run, horizon: StateSamples.now)
        let failed = saved.needsItems(
            for: FeedRun(source: source, outcome: .failed(.fetch(.cancelled))), horizon: .distantPast)
        #expect(!young)
        #expect(aged)
        #expect(failed)

        #expect(saved.loadItems(["https://blog1.example/feed.xml"]) == [])
        #expect(
            saved.state.feeds["https://blog1.example/feed.xml"]?.items
                == state.feeds["https://blog1.example/feed.xml"]?.items)
        #expect(saved.state.feeds["https://blog0.example/feed.xml"]?.items.count == 0)
        #expect(saved.loadAllItems() == [])
        #expect(saved.state == state, "loaded state differs")
        #expect(saved.digest == digest)
    }

    @Test("a save copies the saved items of feeds that did not change instead of encoding them again")
    func unchangedItemsCopied() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        let state = StateSamples.state(feeds: 3, items: 4)
        _ = try store.save(state)
        var saved = try #require(store.load(now: StateSamples.now).0)
        #expect(saved.loadAllItems() == [])
        var merged = saved.state
        merged.feeds["https://blog1.example/feed.xml"]?.items.removeLast()
        merged.feeds["https://blog2.example/feed.xml"]?.health.consecutiveFailures = 1
        let unchanged = try #require(saved.unchangedItems(in: merged))
        #expect(unchanged.ranges.keys.sorted() == ["https://blog0.example/feed.xml", "https://blog2.example/feed.xml"])
        let digest = try store.save(merged, unchanged: unchanged)
        #expect(try Data(contentsOf: store.file) == StateStore.encode(merged))
        var fingerprint = BuildFingerprint()
        fingerprint.add(try Data(contentsOf: store.file))
        #expect(digest == fingerprint.text)
        let (reloaded, _) = store.loadAll(now: StateSamples.now)
        #expect(reloaded == merged, "the saved state differs")
        // The file they were copied from is gone now: nothing is copied from the new one.
        let stale = try store.save(state, unchanged: unchanged)
        #expect(try Data(contentsOf: store.file) == StateStore.encode(state))
        #expect(stale != digest)
    }

    @Test("an index that does not describe state.json is ignored: the whole file is decoded")
    func staleIndex() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        _ = try store.save(StateSamples.state(feeds: 2, items: 2))
        let index = try Data(contentsOf: store.indexFile)
        // A build killed between writing state.json and its index leaves the old index beside a new file.
        let newer = StateSamples.state(feeds: 1, items: 3)
        _ = try store.save(newer)
        try index.write(to: store.indexFile)
        let (loaded, warnings) = store.load(now: StateSamples.now)
        #expect(warnings == [])
        let saved = try #require(loaded)
        #expect(saved.state == newer)
        #expect(!saved.hasUnloadedItems)
        // Written again by the next build (with a fresh index), whatever it changes.
        #expect(saved.digest == nil)
        // An index pointing outside the file is not trusted either.
        _ = try store.save(newer)
        let decoder = StateFile.decoder(trusted: true)
        var tampered = try decoder.decode(StateIndex.self, from: try Data(contentsOf: store.indexFile))
        tampered.feeds = StateIndex.Range(offset: Int.max - 3, length: 10)
        try StateFile.encoder().encode(tampered).write(to: store.indexFile)
        let (again, _) = store.load(now: StateSamples.now)
        #expect(again?.state == newer)
        #expect(again?.digest == nil)
    }

    /// The index and `last-build` were written through Foundation's `.atomic`, whose temporary
    /// `.dat.nosync…` file a killed build left in the folder for ever.
    @Test("a killed build's temporary files (named after its pid) go with the next load; anyone else's stay")
    func killedBuildsFiles() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        _ = try store.save(StateSamples.state(feeds: 1, items: 1))
        // pid_max is at most 4,194,304: these pids cannot be running.
        let dead = [
            ".state.json.new-4999999", ".state-index.json.new-4999998", ".last-build.new-4999997",
            ".search-index.json.new-4999996",
        ]
        let others = [
            ".last-build.new-draft", ".state-index.json.new-12x", ".dat.nosync12.abc", "notes.txt",
            ".state-index.json.new-\(getpid())",
        ]
        for name in dead + others { try Data("x".utf8).write(to: folder.appendingPathComponent(name)) }
        _ = store.load(now: StateSamples.now)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left.isDisjoint(with: dead), "\(left)")
        #expect(Set(others).isSubset(of: left), "\(left)")
        // This process's own are its business, and what it writes replaces the file itself.
        #expect(!left.contains { $0.hasPrefix(".dat.nosync") && $0 != ".dat.nosync12.abc" })
    }

    /// An index with the file's identity but ranges edited by hand: read through it, one feed's
    /// items vanished (`count` 0) or became another's (a shared or swapped range) without a word.
    @Test("an index whose ranges overlap or whose counts cannot be is not used: the whole file is decoded")
    func inconsistentIndex() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        let state = StateSamples.state(feeds: 2, items: 3)
        _ = try store.save(state)
        let decoder = StateFile.decoder(trusted: true)
        let original = try decoder.decode(StateIndex.self, from: try Data(contentsOf: store.indexFile))
        let urls = original.items.keys.sorted()
        #expect(urls.count == 2)
        let edits: [(String, (inout StateIndex) -> Void)] = [
            ("a count of 0 over a range of items", { $0.items[urls[0]]?.count = 0 }),
            ("two feeds sharing a range", { $0.items[urls[0]]?.range = original.items[urls[1]]!.range }),
            // Same counts, same lengths, no overlap: only the key before each range tells them apart.
            (
                "two feeds' ranges swapped",
                {
                    $0.items[urls[0]]?.range = original.items[urls[1]]!.range
                    $0.items[urls[1]]?.range = original.items[urls[0]]!.range
                }
            ),
            ("the feeds' range over the whole file", { $0.feeds = .init(offset: 0, length: original.file.size) }),
            // Found in session 24: a feed left out of the index, or a range cut short by a byte,
            // lost that feed's items (silently, for the first).
            ("a feed left out", { $0.items[urls[0]] = nil }),
            ("a range one byte short", { $0.items[urls[1]]?.range.length -= 1 }),
            ("a range one byte long", { $0.items[urls[0]]?.range.length += 1 }),
        ]
        for (name, edit) in edits {
            var tampered = original
            edit(&tampered)
            try StateFile.encoder().encode(tampered).write(to: store.indexFile)
            var (loaded, warnings) = store.load(now: StateSamples.now)
            #expect(warnings == [], "\(name)")
            warnings = loaded?.loadAllItems() ?? []
            #expect(warnings == [], "\(name)")
            #expect(loaded?.state == state, "\(name)")
            #expect(loaded?.digest == nil, "\(name): the state is written again with a true index")
        }
    }

    /// Found in session 24: `touch state.json` while a build waited for a slow feed made the
    /// build drop the saved items of every feed not loaded yet, publish an empty site and save
    /// an empty state.
    @Test("state.json touched, replaced or damaged after loading: the items come from the file as it is now")
    func stateChangedDuringTheBuild() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        let state = StateSamples.state(feeds: 3, items: 4)
        let urls = state.feeds.keys.sorted()
        func touch() throws {
            let later = Date().addingTimeInterval(5)
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: store.file.path)
        }
        // Touched: the same bytes, another time.
        _ = try store.save(state)
        var saved = try #require(store.load(now: StateSamples.now).0)
        #expect(saved.hasUnloadedItems)
        try touch()
        var warnings = saved.loadAllItems()
        #expect(saved.state == state)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("read the saved items of 3 feeds from the whole file") == true)
        #expect(saved.digest == nil, "written again, with an index that describes it")
        #expect(!StateSamples.names(in: folder).contains { $0.contains("damaged") })
        // Replaced by a state without the first feed: the others' items come from the new file,
        // the first's are lost with a warning naming it.
        _ = try store.save(state)
        saved = try #require(store.load(now: StateSamples.now).0)
        var smaller = state
        smaller.feeds[urls[0]] = nil
        try StateStore.encode(smaller).write(to: store.file)
        warnings = saved.loadAllItems()
        #expect(saved.state.feeds[urls[1]] == state.feeds[urls[1]])
        #expect(saved.state.feeds[urls[2]] == state.feeds[urls[2]])
        #expect(saved.state.feeds[urls[0]]?.items == [])
        #expect(saved.state.feeds[urls[0]]?.etag == nil, "without its items, a 304 would show nothing")
        #expect(warnings.contains { $0.contains("feed \(urls[0]): the saved state no longer holds it") }, "\(warnings)")
        // Overwritten with something that is not a state: every item is lost, said so, and the
        // file is kept aside before the next save replaces it.
        _ = try store.save(state)
        saved = try #require(store.load(now: StateSamples.now).0)
        try Data("not a state".utf8).write(to: store.file)
        warnings = saved.loadAllItems()
        #expect(saved.state.feeds.values.allSatisfy { $0.items.isEmpty })
        #expect(warnings.contains { $0.contains("the saved items of 3 feeds could not be read") }, "\(warnings)")
        #expect(StateSamples.names(in: folder).contains { $0.hasPrefix("state.json.damaged-") })
    }

    /// Found in session 24: a feed given another feed's slug took its folder, and the other feed
    /// moved to a new address, without a word.
    @Test("two feeds saved with one slug: the first by URL keeps it, the other is re-derived with a warning")
    func sharedFeedSlug() throws {
        var state = StateSamples.state(feeds: 3, items: 1)
        let urls = state.feeds.keys.sorted()
        let taken = state.feeds[urls[0]]?.slug
        state.feeds[urls[2]]?.slug = taken
        let (decoded, warnings) = StateStore.decode(StateStore.encode(state), origin: "s", trusted: true)
        #expect(decoded.feeds[urls[0]]?.slug == "blog-0")
        #expect(decoded.feeds[urls[1]]?.slug == "blog-1")
        #expect(decoded.feeds[urls[2]]?.slug == nil)
        #expect(
            warnings == [
                #"s: feed "\#(urls[2])": re-derived the feed's slug ("blog-0" is feed "\#(urls[0])"'s)"#
            ])
    }

    /// Foundation's own errors read as Swift values (`numberIsNotRepresentableInSwift(parsed:
    /// "1e400")`, `cannotConvertInputStringDataToUTF8(location: …)`), and a state nested past its
    /// parser's limit as "not valid JSON (cut off or overwritten?)".
    @Test("a state's unreadable records and files are explained in words: the number, the UTF-8, the date, the nesting")
    func unreadableRecordsInWords() throws {
        func feed(_ health: String, title: String = "T") -> String {
            #"{"feeds":{"https://a.example/feed":{"channel":{"title":"\#(title)"},"items":[],"health":\#(health)}},"items":{},"version":2}"#
        }
        let (_, number) = StateStore.decode(
            Data(feed(#"{"consecutiveFailures":1e400}"#).utf8), origin: "s", trusted: false)
        #expect(
            number == [
                #"s: skipped feed "https://a.example/feed": a number cannot be represented (1e400); its items are lost"#
            ])
        var bytes = Array(feed("{}", title: "AB").utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "B"))!] = 0xFF
        let (_, utf8) = StateStore.decode(Data(bytes), origin: "s", trusted: false)
        #expect(utf8.first?.hasSuffix("a string is not valid UTF-8; its items are lost") == true, "\(utf8)")
        let (_, date) = StateStore.decode(
            Data(feed(#"{"lastSuccess":"-0001-01-01T00:00:00Z"}"#).utf8), origin: "s", trusted: false)
        #expect(date.first?.contains("holds a date that is not ISO 8601 with a four-digit year") == true, "\(date)")
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let (_, nesting) = StateStore.decode(
            Data(#"{"feeds":{},"items":{},"version":2,"x":\#(deep)}"#.utf8), origin: "s", trusted: false)
        #expect(nesting.first?.contains("nest deeper than JSON readers allow (512 levels)") == true, "\(nesting)")
        #expect(StateFile.refusal(Data(#"{"a":"[[[[[[[[","b":[[1]]}"#.utf8), maxDepth: 3) == nil)
        #expect(StateFile.refusal(Data("[[[[1]]]]".utf8), maxDepth: 3) == StateFile.RecordError.tooDeep)
    }

    /// Values counted by reading the text: the object, two keys, a string, an array and its three
    /// numbers; brackets, commas and colons inside strings (escaped quotes too) are not counted.
    @Test("a state's JSON values are counted outside strings, before anything decodes it")
    func shapeCountsValues() {
        let text = #"{"a":"x,y:[{\"],z","b":[1,2,3]}"#
        let shape = JSONShape(Data(text.utf8))
        #expect(shape.values == 8)
        #expect(shape.depth == 2)
        #expect(StateFile.refusal(Data(text.utf8), maxValues: 7)?.hasPrefix("it holds more than 7 JSON values") == true)
        #expect(StateFile.refusal(Data(text.utf8), maxValues: 8) == nil)
    }

    /// 510 MB of `0,` in one feed's items took 13 GB and 68 s to decode (Foundation indexes every
    /// value first), only to be refused for its count. A text of a million more values than a state
    /// may hold (18 MB) is now refused before any decoder sees it, whole or as an indexed part.
    @Test("a state denser in values than any state feedsite writes is refused before it is decoded")
    func tooManyValues() throws {
        let zeros = String(repeating: "0,", count: StateLimits.jsonValues + 1_000_000) + "0"
        let json =
            #"{"feeds":{"https://a.example/feed":{"channel":{"title":"A"},"health":{"consecutiveFailures":0}}},"items":{"https://a.example/feed":[\#(zeros)]},"version":2}"#
        let (state, warnings) = StateStore.decode(Data(json.utf8), origin: "s", trusted: false)
        #expect(state.feeds.isEmpty)
        #expect(
            warnings == [
                "s: not a feedsite state file (it holds more than \(StateLimits.jsonValues) JSON values, the most a state may hold (decoding it would take gigabytes of memory)); starting without saved state"
            ])
        #expect(StateFile.decodeIfBounded([Int].self, from: Data("[\(zeros)]".utf8), trusted: true) == nil)
        #expect(StateFile.decodeIfBounded([Int].self, from: Data("[0,0,0]".utf8), trusted: true) == [0, 0, 0])
    }

    /// 99 MB of a million empty feeds decoded into 2.4 GB; a million small items in one feed 1.3 GB.
    @Test("a state listing more feeds, or a feed more items, than a state may hold is refused before they are decoded")
    func tooManyRecords() throws {
        let feeds = (0...StateLimits.feeds).map { #""https://f\#($0).example/":{}"# }.joined(separator: ",")
        let (state, warnings) = StateStore.decode(
            Data(#"{"feeds":{\#(feeds)},"items":{},"version":2}"#.utf8), origin: "s", trusted: false)
        #expect(state.feeds.isEmpty)
        #expect(
            warnings == [
                "s: not a feedsite state file (it lists 100001 feeds, more than the 100000 a state may hold); starting without saved state"
            ])

        let items = Array(repeating: "{}", count: StateLimits.itemsPerFeed + 1).joined(separator: ",")
        let json =
            #"{"feeds":{"https://a.example/feed":{"channel":{"title":"A"},"items":[],"health":{"consecutiveFailures":0}}},"items":{"https://a.example/feed":[\#(items)]},"version":2}"#
        let (one, oneWarnings) = StateStore.decode(Data(json.utf8), origin: "s", trusted: false)
        #expect(one.feeds["https://a.example/feed"]?.items == [], "\(oneWarnings)")
        #expect(
            oneWarnings.contains { $0.contains("it lists 100001 items, more than the 100000 a feed's state may hold") },
            "\(oneWarnings)")
    }

    /// `last-build`'s counts are printed as a skipped build's: `built -5 pages … (0 of
    /// 9223372036854775807 files changed)`.
    @Test("a last-build file with counts no build can have reads as none: the next build is a full one")
    func lastBuildCounts() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("last-build")
        try Data("f\n/site#1\n12\n21\n4\n".utf8).write(to: file)
        #expect(LastBuild.read(from: file)?.pageCount == 12)
        for lines in ["f\n/site#1\n-5\n21\n4\n", "f\n/site#1\n12\n9223372036854775807\n4\n"] {
            try Data(lines.utf8).write(to: file)
            #expect(LastBuild.read(from: file) == nil, "\(lines)")
        }
    }

    /// `open` on a FIFO waits for a writer: a FIFO in the state's place held the build forever.
    @Test("a FIFO in place of state.json, beside its index, is set aside without waiting", .timeLimit(.minutes(10)))
    func fifoInPlaceOfState() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        _ = try store.save(StateSamples.state(feeds: 1, items: 1))
        try FileManager.default.removeItem(at: store.file)
        #expect(mkfifo(store.file.path, 0o644) == 0)
        let (loaded, warnings) = store.load(now: StateSamples.now)
        #expect(loaded == nil)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("kept it as") == true, "\(warnings)")
    }

    @Test("numbers are clamped, slugs re-derived, unsafe URLs and header values dropped, text bounded")
    func poisonedValues() throws {
        let long = String(repeating: "é", count: 10_000)
        let categories = (1...35).map { "\"c\($0)\"" }.joined(separator: ",")
        // 20 names of 1,000 characters: the first 10 fit in the 10,000 a fresh read keeps.
        let authors = (10...29).map { "\"\($0)" + String(repeating: "a", count: 998) + "\"" }.joined(separator: ",")
        let json = """
            {"feeds":{"https://a.example/feed":{"channel":{"title":"\(long)","siteLink":"javascript:alert(1)","language":"not a tag"},
            "etag":"\\"x\\"\\r\\nX-Injected: 1","slug":"../../outside","items":[],
            "health":{"consecutiveFailures":9223372036854775807,"lastSuccess":"9999-01-01T00:00:00Z","lastStatus":-1}}},
            "items":{"https://a.example/feed":[
            {"key":"k1","firstSeen":"2026-11-01T00:00:00Z","isInFeed":true,"item":{"slug":"../../../etc","feedSlug":"","feedName":"",
             "title":"First post","link":"javascript:alert(1)","authors":[],"content":{"html":"<p>x</p>"},"excerpt":"",
             "categories":[],"enclosures":[{"url":"https://a.example/a.mp3","length":-5}],"wordCount":9223372036854775807}},
            {"key":"k2","firstSeen":"2999-01-01T00:00:00Z","isInFeed":true,"item":{"slug":"same","feedSlug":"","feedName":"",
             "title":"Second post","link":"https://a.example/2","image":"data:image/png;base64,AAAA","authors":[],
             "content":{"html":""},"excerpt":"","categories":[],"enclosures":[],"wordCount":-3}},
            {"key":"k3","firstSeen":"2026-11-02T00:00:00Z","isInFeed":true,"item":{"slug":"same","feedSlug":"","feedName":"",
             "title":"Third post","authors":[\(authors)],"content":{"html":""},"excerpt":"","categories":[\(categories)],"enclosures":[],"wordCount":7}},
            {"key":"k2","firstSeen":"2026-11-03T00:00:00Z","isInFeed":true,"item":{"slug":"dup-key","feedSlug":"","feedName":"",
             "title":"Duplicate key","authors":[],"content":{"html":""},"excerpt":"","categories":[],"enclosures":[],"wordCount":1}}
            ]},"version":2}
            """
        let (state, warnings) = StateStore.decode(Data(json.utf8), origin: "restored", trusted: false)
        let feed = try #require(state.feeds["https://a.example/feed"])
        #expect(feed.health.consecutiveFailures == 1_000_000)
        #expect(feed.health.lastStatus == nil)
        #expect(feed.slug == nil)
        #expect(feed.etag == nil)
        #expect(feed.channel.siteLink == nil)
        #expect(feed.channel.language == nil)
        #expect(feed.channel.title.utf8.count == 8192)
        #expect(feed.channel.title.hasPrefix("éé"))
        #expect(feed.health.lastSuccess != nil)
        #expect(feed.health.lastSuccess.map { $0 <= Date() } == true)
        #expect(feed.items.map(\.key) == ["k1", "k2", "k3"])
        let first = feed.items[0].item
        #expect(first.wordCount == 100_000_000)
        #expect(first.link == nil)
        #expect(first.slug == "first-post")
        #expect(first.enclosures == [Enclosure(url: "https://a.example/a.mp3", length: nil)])
        #expect(feed.items[1].item.wordCount == 0)
        #expect(feed.items[1].item.image == nil)
        #expect(feed.items[1].firstSeen <= Date())
        // "same" stays with the first item that has it; the third gets a slug of its own.
        #expect(feed.items[1].item.slug == "same")
        #expect(feed.items[2].item.slug == "third-post")
        // As many categories as a fresh read keeps.
        #expect(feed.items[2].item.categories == (1...30).map { "c\($0)" })
        #expect(feed.items[2].item.authors == (10...19).map { "\($0)" + String(repeating: "a", count: 998) })
        let text = warnings.joined(separator: "\n")
        for expected in [
            "restored: feed \"https://a.example/feed\": clamped 'health.consecutiveFailures'",
            "re-derived the feed's slug (\"../../outside\" is not a slug)",
            "dropped 'etag', not a usable header value",
            "clamped 'wordCount' (2 items: item 0, key \"k1\"; item 1, key \"k2\")",
            "re-derived slugs that are not slugs (\"../../../etc\") (1 item: item 0, key \"k1\")",
            "re-derived slugs used by an earlier item (\"same\") (1 item: item 2, key \"k3\")",
            "skipped items whose key appears earlier in the feed (1 item: item 3, key \"k2\")",
            "kept the first 30 'categories' (1 item: item 2, key \"k3\")",
            "dropped authors past 10000 characters of names (1 item: item 2, key \"k3\")",
        ] {
            #expect(text.contains(expected), "missing: \(expected)\nin:\n\(text)")
        }
    }

    @Test("one item with a wrong-typed field among 2,000 costs that item only, in either version")
    func wrongTypedItem() throws {
        let state = StateSamples.state(feeds: 2, items: 2_000)
        let url = "https://blog1.example/feed.xml"
        let key = "https://blog1.example/posts/1234"
        // Version 2, as saved now; then version 1, the items inside each feed.
        var shape = try JSONSerialization.jsonObject(with: StateStore.encode(state)) as? [String: Any]
        var items = try #require((shape?["items"] as? [String: Any])?[url] as? [[String: Any]])
        var item = try #require(items[1234]["item"] as? [String: Any])
        item["wordCount"] = "many"
        items[1234]["item"] = item
        var all = shape?["items"] as? [String: Any]
        all?[url] = items
        shape?["items"] = all
        let version2 = try JSONSerialization.data(withJSONObject: shape as Any)
        var feeds = try #require(shape?["feeds"] as? [String: [String: Any]])
        for (feedURL, list) in all ?? [:] { feeds[feedURL]?["items"] = list }
        let version1 = try JSONSerialization.data(withJSONObject: ["version": 1, "feeds": feeds])

        for data in [version2, version1] {
            let (decoded, warnings) = StateStore.decode(data, origin: "state.json", trusted: true)
            #expect(decoded.feeds[url]?.items.count == 1_999)
            #expect(decoded.feeds[url]?.items.contains { $0.key == key } == false)
            #expect(
                decoded.feeds["https://blog0.example/feed.xml"]?.items
                    == state.feeds["https://blog0.example/feed.xml"]?.items)
            #expect(
                warnings == [
                    "state.json: feed \"\(url)\": skipped 1 unreadable item, kept the rest — item 1234 (key \"\(key)\"): 'item.wordCount' is not a number"
                ])
        }
    }

    @Test("a feed entry that does not decode is skipped; the other feeds are kept")
    func badFeed() throws {
        let json = """
            {"feeds":{"https://a.example/feed":{"channel":{"title":"A"},"items":[],"health":"broken"},
            "https://b.example/feed":{"channel":{"title":"B"},"items":[],"health":{"consecutiveFailures":0}}},
            "items":{"https://a.example/feed":[],"https://b.example/feed":{"not":"a list"}},"version":2}
            """
        let (state, warnings) = StateStore.decode(Data(json.utf8), origin: "s", trusted: true)
        #expect(state.feeds.keys.sorted() == ["https://b.example/feed"])
        #expect(
            warnings == [
                "s: skipped feed \"https://a.example/feed\": 'health' is not an object; its items are lost",
                "s: feed \"https://b.example/feed\": skipped its items: the record is not a list",
            ])
    }

    @Test(
        "files feedsite cannot read give no state and say why, without crashing",
        arguments: [
            ("{not json", "not a feedsite state file"),
            ("[1,2,3]", "not a feedsite state file"),
            (#"{"version":"two","feeds":{}}"#, "'version' is not a number"),
            (#"{"version":0,"feeds":{}}"#, "not a feedsite state file (version 0)"),
            (#"{"version":3,"feeds":[]}"#, "state version 3 is newer than this feedsite understands (2)"),
            (String(repeating: "[", count: 100_000), "not a feedsite state file"),
            (#"{"version":2,"feeds":{"a":{"channel":{"title":"#, "not a feedsite state file"),
        ])
    func unreadable(input: String, expected: String) {
        let (state, warnings) = StateStore.decode(Data(input.utf8), origin: "x", trusted: false)
        #expect(state == SiteState())
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(expected) == true, "\(warnings)")
    }

    @Test("an unreadable state file is moved aside, a newer one kept as state.vN.json; nothing is overwritten")
    func setAside() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let corrupt = Data("{not json".utf8)
        try corrupt.write(to: store.file)
        let (first, firstWarnings) = store.load(now: StateSamples.now)
        #expect(first == nil)
        #expect(
            firstWarnings.first?.contains("cannot be read (it is not valid JSON (cut off or overwritten?))") == true)
        #expect(
            firstWarnings.first?.hasSuffix(
                "kept it as \(folder.path)/state.json.unreadable-2026-11-18 and started without saved state") == true,
            "\(firstWarnings)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("state.json.unreadable-2026-11-18")) == corrupt)
        // The same day again: the first one kept stays as it is.
        try Data("also not json".utf8).write(to: store.file)
        _ = store.load(now: StateSamples.now)
        #expect(try Data(contentsOf: folder.appendingPathComponent("state.json.unreadable-2026-11-18")) == corrupt)
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("state.json.unreadable-2026-11-18-2").path))
        // A hundred kept already: the next one still gets a name of its own (it was left in place,
        // and the next save overwrote it).
        for number in 3...100 {
            try Data().write(to: folder.appendingPathComponent("state.json.unreadable-2026-11-18-\(number)"))
        }
        let hundredth = Data("the hundred and first".utf8)
        try hundredth.write(to: store.file)
        let (_, crowded) = store.load(now: StateSamples.now)
        #expect(
            crowded.first?.contains("kept it as \(folder.path)/state.json.unreadable-2026-11-18-") == true, "\(crowded)"
        )
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("state.json.unreadable-2026-11-18-") && $0.count > "state.json.unreadable-2026-11-18-100".count
        }
        #expect(kept.count == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(kept[0])) == hundredth)

        let future = Data(#"{"version":7,"feeds":{"x":{"whatever":true}},"history":[]}"#.utf8)
        try future.write(to: store.file)
        let (second, secondWarnings) = store.load(now: StateSamples.now)
        #expect(second == nil)
        #expect(secondWarnings.first?.contains("written by a newer feedsite (state version 7") == true)
        #expect(secondWarnings.first?.contains("kept it as \(folder.path)/state.v7.json") == true)
        #expect(try Data(contentsOf: folder.appendingPathComponent("state.v7.json")) == future)
        #expect(!FileManager.default.fileExists(atPath: store.file.path))
    }

    @Test("a state with skipped records keeps its original as state.json.damaged-<day>")
    func damagedKeptAside() throws {
        let folder = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = Data(
            #"{"feeds":{"https://a.example/f":{"channel":{"title":"A"},"slug":"a/b","items":[],"health":{"consecutiveFailures":0}}},"version":2}"#
                .utf8)
        try original.write(to: store.file)
        let (loaded, warnings) = store.load(now: StateSamples.now)
        #expect(loaded?.state.feeds["https://a.example/f"]?.slug == nil)
        #expect(loaded?.digest == nil)
        #expect(
            warnings.last
                == "\(store.file.path): kept the original as \(folder.path)/state.json.damaged-2026-11-18; the repaired state replaces it"
        )
        #expect(try Data(contentsOf: folder.appendingPathComponent("state.json.damaged-2026-11-18")) == original)
    }

    @Test("a state folder that is a file is refused")
    func folderIsAFile() throws {
        let file = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("mine".utf8).write(to: file)
        let store = StateStore(directory: file)
        #expect(throws: StateError.self) { try store.checkFolder() }
        do {
            try store.checkFolder()
        } catch {
            #expect(error.kind == .refused)
            #expect(error.message.hasPrefix("the state folder is a file"))
        }
        #expect(throws: StateError.self) { _ = try store.save(SiteState()) }
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
    }

    @Test("a state folder that cannot be created says why in words (a file on the way), not Foundation's error 512")
    func folderBelowAFile() throws {
        let file = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("mine".utf8).write(to: file)
        let store = StateStore(directory: file.appendingPathComponent("state"))
        let error = #expect(throws: StateError.self) { try store.createFolder() }
        #expect(error?.kind == .refused)
        #expect(
            error?.message
                == "cannot create the state folder: Not a directory; a part of the path is a file, not a folder: choose another with --state or 'state_dir'"
        )
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
        // And a missing folder several levels deep is made.
        let deep = StateSamples.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: deep) }
        try StateStore(directory: deep.appendingPathComponent("a/b/c")).createFolder()
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: deep.appendingPathComponent("a/b/c").path, isDirectory: &isFolder))
        #expect(isFolder.boolValue)
    }
}
