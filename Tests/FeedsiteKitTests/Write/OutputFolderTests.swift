import Foundation
import Testing

@testable import FeedsiteKit

#if canImport(Glibc)
    import Glibc
#endif

/// feedsite writes a site only into a folder it made; the user's files stay byte-identical at
/// their paths whatever happens.
@Suite("Output folder ownership")
final class OutputFolderTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("feedsite-owner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func write(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String, in folder: URL) -> String? {
        (try? Data(contentsOf: folder.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every file below `folder` (path → bytes), links as `-> target`.
    func snapshot(_ folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(path)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                result[path] = "-> " + target
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[path] = read(path, in: folder)
            }
        }
        return result
    }

    func entries(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// A mount point cannot be renamed: a Docker volume as the output folder failed at the swap,
    /// after every feed was fetched, with "cannot move the old site aside: Device or resource busy".
    @Test("a mount point as the output folder is refused before anything is fetched, with a folder inside it to use")
    func mountPoint() async throws {
        #expect(OutputFolder.isMountPoint("/proc"))
        #expect(!OutputFolder.isMountPoint(root.path))
        #expect(OutputFolder.unescapedMountPath("/mnt/my\\040site\\134x") == "/mnt/my site\\x")
        do {
            _ = try await OutputFolder.check(URL(fileURLWithPath: "/proc"))
            Issue.record("/proc was accepted")
        } catch {
            #expect(error.kind == .refused)
            #expect(error.description.contains("/proc: is a mount point"), "\(error.description)")
            #expect(error.description.contains("--output /proc/site"), "\(error.description)")
        }
    }

    @Test("a path is inside a folder only byte for byte: another Unicode form of its name is another folder")
    func containsComparesBytes() {
        #expect(OutputFolder.contains("/tmp/site", "/tmp/site"))
        #expect(OutputFolder.contains("/tmp/site", "/tmp/site/a/b"))
        #expect(OutputFolder.contains("/", "/etc"))
        #expect(!OutputFolder.contains("/tmp/site", "/tmp/site2"))
        #expect(!OutputFolder.contains("/tmp/site", "/tmp"))
        let nfc = "/tmp/caf\u{E9}/Site"
        let nfd = "/tmp/cafe\u{301}/Site"
        #expect(nfc == nfd)  // one string to Swift, two folders to the file system
        #expect(!OutputFolder.contains(nfc, nfd + "/secret.txt"))
        #expect(!OutputFolder.contains(nfc, nfd))
        #expect(!OutputFolder.contains("/tmp/a", "/tmp/a\u{301}/x"))  // `a` + U+0301 is `á`, not inside `a`
        #expect(OutputFolder.contains(nfd, nfd + "/x"))
    }

    @Test("a folder holding the user's files (a GitHub Pages docs/) is refused, exit 73, and left byte-identical")
    func foreignFolderRefused() async throws {
        let docs = root.appendingPathComponent("docs")
        try write("planet.example.org\n", "CNAME", in: docs)
        try write("<h1>About</h1>\n", "about.html", in: docs)
        let before = snapshot(docs)
        for _ in 0..<2 {
            let error = await #expect(throws: SiteWriter.WriteError.self) {
                try await SiteWriter().write(["index.html": Data("site".utf8)], to: docs)
            }
            #expect(error?.exitStatus == .cannotCreate)
            #expect(error?.description.contains("holds files feedsite did not write (CNAME, about.html)") == true)
            #expect(error?.description.contains("static/") == true)
        }
        #expect(snapshot(docs) == before)
        #expect(entries(root) == ["docs"])
    }

    @Test("a file as the output folder is refused and left as it is")
    func fileRefused() async throws {
        let file = root.appendingPathComponent("feeds.yml")
        try write("title: x\n", "feeds.yml", in: root)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("site".utf8)], to: file)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.contains("is a file, not a folder") == true)
        #expect(read("feeds.yml", in: root) == "title: x\n")
        #expect(entries(root) == ["feeds.yml"])
    }

    @Test(
        "a folder inside a site feedsite wrote (or inside its previous site) is refused: that site's next build would delete it"
    )
    func insideASiteRefused() async throws {
        let site = root.appendingPathComponent("Site")
        try await SiteWriter().write(["index.html": Data("one".utf8), "feeds/a/index.html": Data("a".utf8)], to: site)
        try await SiteWriter().write(["index.html": Data("two".utf8), "feeds/a/index.html": Data("a".utf8)], to: site)
        let before = snapshot(root)
        for inner in ["Site/feeds/blog", "Site/feeds/a", "Site/x/y", ".Site.previous/feeds/blog"] {
            let error = await #expect(throws: SiteWriter.WriteError.self) {
                try await SiteWriter().write(["index.html": Data("inner".utf8)], to: root.appendingPathComponent(inner))
            }
            #expect(error?.exitStatus == .cannotCreate)
            let outer = inner.hasPrefix(".") ? ".Site.previous" : "Site"
            #expect(
                error?.description.contains(
                    "is inside \(root.appendingPathComponent(outer).path), a site feedsite wrote") == true,
                "\(String(describing: error))")
            #expect(error?.description.contains("pass an --output outside it") == true)
        }
        #expect(snapshot(root) == before)
        // Beside the site is fine.
        try await SiteWriter().write(["index.html": Data("other".utf8)], to: root.appendingPathComponent("Other"))
        #expect(read("Other/index.html", in: root) == "other")
    }

    @Test(
        "the folders feedsite keeps beside a site (.Site.previous, .Site.new-<pid>, .Site.old-<pid>) are refused as --output"
    )
    func bookkeepingNamesRefused() async throws {
        let site = root.appendingPathComponent("Site")
        try await SiteWriter().write(["index.html": Data("one".utf8)], to: site)
        try await SiteWriter().write(["index.html": Data("two".utf8)], to: site)
        #expect(entries(root) == [".Site.previous", "Site"])
        let before = snapshot(root)
        for name in [".Site.previous", ".Site.new-123", ".Site.old-9", ".my site.previous"] {
            let error = await #expect(throws: SiteWriter.WriteError.self) {
                try await SiteWriter().write(["index.html": Data("x".utf8)], to: root.appendingPathComponent(name))
            }
            #expect(error?.exitStatus == .cannotCreate)
            let owner = name == ".my site.previous" ? "my site" : "Site"
            #expect(
                error?.description.contains("is a name feedsite gives a folder it keeps beside the site \(owner)")
                    == true,
                "\(String(describing: error))")
        }
        #expect(snapshot(root) == before)
        // Names that only look alike are anyone's.
        for name in [".previous", "Site.previous", ".Site.new-", ".Site.new-12a", ".new-3", ".config"] {
            #expect(OutputFolder.siteKeeping(name) == nil, "\(name)")
        }
    }

    @Test(
        "a file put at the top of .Site.previous after feedsite kept it (a program working inside Site) is never deleted: the folder is left as it is, with a warning"
    )
    func strangerInPreviousKept() async throws {
        let site = root.appendingPathComponent("Site")
        let previous = root.appendingPathComponent(".Site.previous")
        try await SiteWriter().write(["index.html": Data("one".utf8), "feeds/a.html": Data("a".utf8)], to: site)
        try write("planet.example.org\n", "CNAME", in: site)  // carried over: in .Site.previous too
        try await SiteWriter().write(["index.html": Data("two".utf8), "feeds/a.html": Data("a".utf8)], to: site)
        #expect(read("CNAME", in: previous) == "planet.example.org\n")
        // The CNAME carried over into the kept site is no reason to keep it.
        let third = try await SiteWriter().write(["index.html": Data("three".utf8)], to: site)
        #expect(third.warnings.isEmpty)
        try write("draft\n", "notes.txt", in: previous)
        try write("mine\n", "mine/x.txt", in: previous)
        for text in ["four", "five"] {
            let report = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("index.html", in: site) == text)
            #expect(read("CNAME", in: site) == "planet.example.org\n")
            #expect(read("notes.txt", in: previous) == "draft\n")
            #expect(read("mine/x.txt", in: previous) == "mine\n")
            #expect(
                report.warnings == [
                    "\(previous.path): mine/, notes.txt are not written by feedsite: they were put into the site before "
                        + "the current one after feedsite kept it (by a program whose working folder was inside Site, "
                        + "perhaps); it was left as it is and the site built without it (which takes longer): move what "
                        + "you need out of it, then delete the folder"
                ])
            #expect(entries(root) == [".Site.previous", "Site"])
        }
        // Deleted by the user: the next build keeps the site before it again, and says nothing.
        try FileManager.default.removeItem(at: previous)
        let sixth = try await SiteWriter().write(["index.html": Data("six".utf8)], to: site)
        #expect(sixth.warnings.isEmpty)
        #expect(read("index.html", in: previous) == "five")
        #expect(entries(root) == [".Site.previous", "Site"])
    }

    @Test("an empty folder, or one holding only dotfiles (.gitkeep), is adopted; the dotfiles stay build after build")
    func emptyAdopted() async throws {
        let site = root.appendingPathComponent("Site")
        try write("", ".gitkeep", in: site)
        try write("keep me\n", ".htaccess", in: site)
        for text in ["one", "two", "three"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("index.html", in: site) == text)
            #expect(read(".gitkeep", in: site) == "")
            #expect(read(".htaccess", in: site) == "keep me\n")
        }
        let marker = try #require(read(".feedsite-site", in: site))
        #expect(!marker.contains("\n.gitkeep\n") && !marker.contains(".htaccess"))
        let empty = root.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try await SiteWriter().write(["index.html": Data("x".utf8)], to: empty)
        #expect(read("index.html", in: empty) == "x")
    }

    /// What a site written by feedsite before the marker existed looks like.
    private func olderSite(at site: URL) throws {
        try write("<html>old</html>", "index.html", in: site)
        try write("<html>status</html>", "status/index.html", in: site)
        try write(#"{"feeds":{},"version":1}"#, "status/state.json", in: site)
        try write("{}", "status/status.json", in: site)
        try write("body{}", "assets/style.css", in: site)
        try write("<html>item</html>", "items/f/i/index.html", in: site)
        try write("<opml/>", "opml.xml", in: site)
        try write("", ".gitkeep", in: site)
    }

    @Test("a hand-made folder shaped like an older site, whose status/state.json is not a feedsite state, is refused")
    func handMadeSiteIsNotAdopted() async throws {
        let site = root.appendingPathComponent("Site")
        try olderSite(at: site)
        for state in ["{}", #"{"version": 1}"#, "not json"] {
            try write(state, "status/state.json", in: site)
            await expectRefused(site)
        }
        // Spaced out as any JSON writer may, it is one.
        try write("{\n  \"feeds\" : {}, \"version\": 2}", "status/state.json", in: site)
        _ = try await SiteWriter().write(["index.html": Data("new".utf8)], to: site)
        #expect(read("index.html", in: site) == "new")
    }

    @Test("an output folder whose name leaves no room for .NAME.new-<pid> beside it is refused, whatever the pid")
    func outputNameTooLong() async throws {
        let longest = root.appendingPathComponent(String(repeating: "s", count: 242))
        _ = try await SiteWriter().write(["index.html": Data("x".utf8)], to: longest)
        #expect(read("index.html", in: longest) == "x")
        let tooLong = root.appendingPathComponent(String(repeating: "s", count: 243))
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("x".utf8)], to: tooLong)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.message.hasPrefix("its name is 243 bytes long") == true)
        #expect(error?.message.contains("at most 242 bytes") == true)
        #expect(!FileManager.default.fileExists(atPath: tooLong.path))
    }

    @Test("a site an older feedsite wrote (no marker) is recognised and replaced; its dotfiles stay")
    func olderSiteAdopted() async throws {
        let site = root.appendingPathComponent("Site")
        try olderSite(at: site)
        // Its previous site, kept by the older feedsite: recognised by its .gitignore.
        let previous = root.appendingPathComponent(".Site.previous")
        try write("<html>older</html>", "index.html", in: previous)
        try write(
            "# feedsite: the site before the current one, reused by the next build. Safe to delete.\n*\n",
            ".gitignore", in: previous)
        _ = try await SiteWriter().write(["index.html": Data("new".utf8)], to: site)
        #expect(read("index.html", in: site) == "new")
        #expect(read(".gitkeep", in: site) == "")
        #expect(read(".feedsite-site", in: site)?.hasPrefix("feedsite-site 1 complete") == true)
        #expect(entries(root) == [".Site.previous", "Site"])
        // The old site is now the previous one, marked.
        #expect(read("items/f/i/index.html", in: previous) == "<html>item</html>")
        #expect(read(".feedsite-site", in: previous)?.hasPrefix("feedsite-site 1 complete") == true)
    }

    @Test(
        "a folder that looks like a site but holds anything else is refused",
        arguments: ["notes.txt", "drafts/", ".git/", "index.html/"])
    func olderSiteWithForeignFiles(extra: String) async throws {
        let site = root.appendingPathComponent("Site")
        if extra == "index.html/" {
            try write("<html>status</html>", "status/index.html", in: site)
            try write("{}", "status/state.json", in: site)
            try write("body{}", "assets/style.css", in: site)
            try write("x", "index.html/inner", in: site)
        } else {
            try olderSite(at: site)
            try write("mine", extra.hasSuffix("/") ? extra + "file" : extra, in: site)
        }
        await expectRefused(site)
    }

    /// A write into `site` is refused (exit 73), leaving it and the folder around it as they were.
    private func expectRefused(_ site: URL) async {
        let before = snapshot(site)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("new".utf8)], to: site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(snapshot(site) == before)
        #expect(entries(root) == ["Site"])
    }

    @Test("a file put by hand at the top of a site feedsite made is carried over; a folder put there is refused")
    func handPlacedFiles() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(
            ["index.html": Data("1".utf8), "items/a/index.html": Data("a".utf8)], to: site)
        try write("planet.example.org\n", "CNAME", in: site)
        for text in ["2", "3", "4"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("CNAME", in: site) == "planet.example.org\n")
            #expect(read("index.html", in: site) == text)
        }
        // What feedsite wrote and no longer writes goes (items/ is listed in the marker).
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("items").path))
        #expect(try await OutputFolder.check(site).foreignFiles == ["CNAME"])
        try write("draft", "drafts/one.html", in: site)
        let before = snapshot(site)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("5".utf8)], to: site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.contains("drafts/ is not written by feedsite") == true)
        #expect(snapshot(site) == before)
    }

    @Test("a hand-placed file where the new site has one of the same name stops the build; nothing moves")
    func handPlacedCollision() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("1".utf8)], to: site)
        try write("mine", "404.html", in: site)
        let before = snapshot(site)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("2".utf8), "404.html": Data("generated".utf8)], to: site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(snapshot(site) == before)
        #expect(!entries(root).contains { $0.hasPrefix(".Site.new-") })
    }

    @Test("folders beside the site that feedsite did not make are never reused, moved or deleted")
    func foreignNeighboursKept() async throws {
        let site = root.appendingPathComponent("Site")
        let previous = root.appendingPathComponent(".Site.previous")
        try write("mine", "notes.txt", in: previous)
        let deadStaging = root.appendingPathComponent(".Site.new-999999")
        try write("mine too", "index.html", in: deadStaging)
        let oldSwap = root.appendingPathComponent(".Site.old-999998")
        try write("and mine", "index.html", in: oldSwap)
        // Empty folders with those names, a dead pid's or none, are the user's too.
        let emptyOnes = [".Site.new-999997", ".Site.new-draft", ".Site.old-999996"]
        for name in emptyOnes {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        let before = [previous, deadStaging, oldSwap].map(snapshot)
        for text in ["one", "two", "three"] {
            _ = try await SiteWriter().write(["index.html": Data(text.utf8)], to: site)
            #expect(read("index.html", in: site) == text)
        }
        #expect([previous, deadStaging, oldSwap].map(snapshot) == before)
        #expect(
            entries(root)
                == (emptyOnes + [".Site.new-999999", ".Site.old-999998", ".Site.previous", "Site"]).sorted())
    }

    @Test("a folder a killed build left is deleted when marked incomplete, kept as the previous site when complete")
    func killedBuildLeftovers() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("live".utf8)], to: site)
        // A killed build's staging folder, partly written: never reused as a whole site.
        let dead = root.appendingPathComponent(".Site.new-999999")
        try write("half", "index.html", in: dead)
        try write("stale", "items/x/index.html", in: dead)
        try SiteMarker.incomplete.data.write(to: dead.appendingPathComponent(".feedsite-site"))
        var staging = try await SiteWriter().begin(site)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        try await staging.add(["index.html": Data("next".utf8)])
        _ = try await staging.commit()
        #expect(read("index.html", in: site) == "next")
        #expect(snapshot(root.appendingPathComponent(".Site.previous"))["items/x/index.html"] == nil)
    }

    @Test("an output path that is a symbolic link: published into the real folder, swapped beside it, the link stays")
    func symlinkedOutput() async throws {
        let www = root.appendingPathComponent("www")
        let real = www.appendingPathComponent("planet")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let project = root.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let link = project.appendingPathComponent("Site")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        for text in ["one", "two", "three"] {
            _ = try await SiteWriter().write(
                ["index.html": Data(text.utf8), "a/\(text).html": Data(text.utf8)], to: link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
            #expect(read("index.html", in: real) == text)
            #expect(read("a/\(text).html", in: link) == text)
        }
        #expect(entries(project) == ["Site"])
        #expect(entries(www) == [".planet.previous", "planet"])
        #expect(!FileManager.default.fileExists(atPath: real.appendingPathComponent(".gitignore").path))
        #expect(SiteWriter.previousFolder(of: link).path == www.appendingPathComponent(".planet.previous").path)
        #expect(read("index.html", in: www.appendingPathComponent(".planet.previous")) == "two")
        // Through a link, the same ownership rule: the real folder's foreign files are refused.
        let foreign = root.appendingPathComponent("foreign")
        try write("mine", "notes.txt", in: foreign)
        let second = project.appendingPathComponent("Other")
        try FileManager.default.createSymbolicLink(atPath: second.path, withDestinationPath: foreign.path)
        let refused = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data()], to: second)
        }
        // Named with the folder the link leads to: that is where the files in question are.
        let realForeign = OutputFolder.realPath(foreign.path) ?? foreign.path
        #expect(refused?.path == "\(second.path) (a link to \(realForeign))", "\(String(describing: refused))")
        #expect(snapshot(foreign) == ["notes.txt": "mine"])
        // A link that leads nowhere is refused, and stays.
        let dangling = project.appendingPathComponent("Gone")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "/nonexistent/planet")
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data()], to: dangling)
        }
        #expect(error?.description.contains("is a symbolic link to /nonexistent/planet, which does not exist") == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling.path) == "/nonexistent/planet")
    }

    @Test(
        "the last build's identity of a symlinked output is the real folder's: a folder replaced behind the link differs"
    )
    func symlinkedIdentity() async throws {
        let real = root.appendingPathComponent("www/planet")
        try write("site", "index.html", in: real)
        let link = root.appendingPathComponent("Site")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let before = try #require(LastBuild.identity(of: link))
        #expect(LastBuild.identity(of: real) == before)
        #expect(before.hasPrefix(OutputFolder.realPath(real.path).map { $0 + "#" } ?? "?"))
        // Replaced: a new folder at the same path, the link untouched.
        try FileManager.default.moveItem(at: real, to: root.appendingPathComponent("www/old"))
        try write("site", "index.html", in: real)
        let after = try #require(LastBuild.identity(of: link))
        #expect(after != before)
        #expect(LastBuild.identity(of: real) == after)
        // No site there: no identity.
        try FileManager.default.removeItem(at: real.appendingPathComponent("index.html"))
        #expect(LastBuild.identity(of: link) == nil)
    }

    @Test("a file whose name is not UTF-8 at the top of a site is refused, not lost")
    func undecodableName() async throws {
        let site = root.appendingPathComponent("Site")
        _ = try await SiteWriter().write(["index.html": Data("1".utf8)], to: site)
        // "caf\xE9" in Latin-1: not UTF-8.
        let bytes = Array(site.path.utf8) + Array("/caf".utf8) + [0xE9, 0]
        let descriptor = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let error = await #expect(throws: SiteWriter.WriteError.self) {
            try await SiteWriter().write(["index.html": Data("2".utf8)], to: site)
        }
        #expect(error?.exitStatus == .cannotCreate)
        #expect(error?.description.contains("is not UTF-8") == true)
        #expect(read("index.html", in: site) == "1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.path).count == 3)
    }

    @Test("the marker round-trips, and anything but a complete marker is not a whole site")
    func markerFormat() {
        let marker = SiteMarker(state: .complete, names: ["index.html", "CNAME", ".well-known"])
        #expect(SiteMarker.parse(marker.data) == marker)
        #expect(SiteMarker.parse(SiteMarker.incomplete.data) == .incomplete)
        #expect(SiteMarker.parse(Data("feedsite-site 2 finished\nx\n".utf8)) == .incomplete)
        #expect(SiteMarker.parse(Data("hello\n".utf8)) == nil)
        // Names are taken as they are after the heading, even one that starts with "#".
        let odd = SiteMarker(state: .complete, names: ["#hash", " space", "feedsite-site 1 complete"])
        #expect(SiteMarker.parse(odd.data) == odd)
        #expect(SiteMarker.parse(Data()) == nil)
    }
}
