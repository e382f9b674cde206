import Foundation

/// A digest of everything a build's output depends on: the saved state (items, health), this run's
/// per-feed outcomes, the templates and assets, the configuration and feedsite's version.
///
/// When it equals the previous build's and that build's output folder is still the one on disk, the
/// site would come out byte-for-byte the same, so rendering and writing are skipped: a warm rebuild
/// where every feed answered 304 costs the fetches and the state, not 30,000 pages.
struct BuildFingerprint: Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a over the bytes, with a separator so that ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ data: Data) {
        addBytes(data)
        endField()
    }

    /// Part of a field that arrives in pieces; `endField()` after the last one. The digest equals
    /// `add` of the pieces joined.
    mutating func addBytes(_ data: some DataProtocol & ContiguousBytes) {
        data.withUnsafeBytes { buffer in
            var hash = value
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            value = hash
        }
    }

    mutating func endField() {
        value = (value ^ 0xFF) &* 0x0000_0100_0000_01B3
    }

    mutating func add(_ text: String) {
        add(Data(text.utf8))
    }

    var text: String { String(value, radix: 16) }
}

/// The fingerprint of the last build that wrote a site, kept in the state directory next to
/// `state.json` with the identity of the folder it wrote.
struct LastBuild: Equatable {
    var fingerprint: String
    /// The output folder's inode: a deleted or replaced folder forces a full build.
    var outputIdentity: String
    var pageCount: Int
    var fileCount: Int
    /// Items on the site, so a skipped build can report them without assembling the model.
    var itemCount: Int

    static func identity(of directory: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path),
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue,
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path)
        else { return nil }
        return "\(directory.standardizedFileURL.path)#\(inode)"
    }

    static func read(from file: URL) -> LastBuild? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\n").map(String.init)
        // An older four-line file reads as nothing: the next build is a full one.
        guard fields.count == 5, let pages = Int(fields[2]), let files = Int(fields[3]), let items = Int(fields[4])
        else { return nil }
        return LastBuild(
            fingerprint: fields[0], outputIdentity: fields[1], pageCount: pages, fileCount: files, itemCount: items)
    }

    func write(to file: URL) {
        let text = "\(fingerprint)\n\(outputIdentity)\n\(pageCount)\n\(fileCount)\n\(itemCount)\n"
        try? Data(text.utf8).write(to: file, options: .atomic)
    }
}
