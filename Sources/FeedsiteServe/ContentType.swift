/// MIME types by file extension, for what a static site holds. Text types name their charset,
/// since feedsite writes UTF-8 everywhere.
enum ContentType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "xml": "application/xml; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
        "woff": "font/woff",
        "map": "application/json; charset=utf-8",
        "pdf": "application/pdf",
        "mp3": "audio/mpeg",
        "mp4": "video/mp4",
        "webm": "video/webm",
    ]

    /// The type for a file name; `application/octet-stream` when the extension is unknown.
    static func forFile(named name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static func isHTML(_ type: String) -> Bool {
        type.hasPrefix("text/html")
    }
}
