import Foundation

/// The fingerprint of the last build that wrote a site, kept in the state directory next to
/// `state.json` with the identity of the folder it wrote.
struct LastBuild: Equatable {
    var fingerprint: String
    /// The real output folder and its inode: a deleted or replaced folder forces a full build.
    var outputIdentity: String
    var pageCount: Int
    var fileCount: Int
    /// Items on the site, so a skipped build can report them without assembling the model.
    var itemCount: Int

    /// The real folder `directory` names (resolved as the writer resolves it, so a symbolic link
    /// is followed to the folder it publishes into) and that folder's inode; nil when it holds no
    /// site. A folder replaced behind an unchanged link has another identity.
    static func identity(of directory: URL) -> String? {
        guard let path = try? OutputFolder.resolve(directory.standardizedFileURL.path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeDirectory,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue,
            FileManager.default.fileExists(atPath: path + "/index.html")
        else { return nil }
        return "\(path)#\(inode)"
    }

    static func read(from file: URL) -> LastBuild? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\n").map(String.init)
        // An older four-line file reads as nothing: the next build is a full one.
        // Counts no build can have (negative, or past a billion) read as nothing too: the file is
        // anyone's, and its counts are printed as the skipped build's.
        let counts = 0...1_000_000_000
        guard fields.count == 5, let pages = Int(fields[2]), let files = Int(fields[3]), let items = Int(fields[4]),
            counts.contains(pages), counts.contains(files), counts.contains(items)
        else { return nil }
        return LastBuild(
            fingerprint: fields[0], outputIdentity: fields[1], pageCount: pages, fileCount: files, itemCount: items)
    }

    func write(to file: URL) {
        let text = "\(fingerprint)\n\(outputIdentity)\n\(pageCount)\n\(fileCount)\n\(itemCount)\n"
        try? FileReplacement.replace(file, with: Data(text.utf8))
    }
}
