import FeedsiteShared
import Foundation

/// Video pages an item can link to: the item is then shown with its poster, linking to the video
/// where it plays ("Watch on YouTube"); feedsite embeds no player from another host.
enum VideoSite {
    /// `YouTube`, `Vimeo`, or a PeerTube instance's host (`framatube.org`) when `link` is the page
    /// of one video there; nil for any other link.
    static func name(of link: String) -> String? {
        guard mayBeVideo(link) else { return nil }
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = url.host?.lowercased()
        else { return nil }
        for prefix in ["www.", "m."] where host.hasPrefix(prefix) { host.removeFirst(prefix.count) }
        let path = url.path
        switch host {
        case "youtube.com", "youtube-nocookie.com", "music.youtube.com":
            let isVideo =
                (path == "/watch" && (url.query ?? "").contains("v=")) || path.hasPrefix("/shorts/")
                || path.hasPrefix("/live/") || path.hasPrefix("/embed/")
            return isVideo ? "YouTube" : nil
        case "youtu.be":
            return path.count > 1 ? "YouTube" : nil
        case "vimeo.com", "player.vimeo.com":
            return path.split(separator: "/").contains { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ? "Vimeo" : nil
        default:
            // PeerTube: `/videos/watch/<uuid>` (all versions) or `/w/<short id>` (3.3 and later).
            let parts = path.split(separator: "/")
            let isPeerTube =
                (parts.count == 3 && parts[0] == "videos" && parts[1] == "watch" && isIdentifier(parts[2], 20))
                || (parts.count == 2 && parts[0] == "w" && isIdentifier(parts[1], 10))
            return isPeerTube ? (url.host ?? host) : nil
        }
    }

    /// False when `link` cannot be a video page, decided over its bytes (most links are not, and
    /// parsing every item's link as a `URL` on every list page was 3 % of a cold build): it names
    /// no `youtu` or `vimeo` (in any case), no `/videos/` or `/w/`, and has no `%` that could hide one.
    static func mayBeVideo(_ link: String) -> Bool {
        var link = link
        return link.withUTF8 { bytes in
            ByteScan.firstIndex(of: UInt8(ascii: "%"), in: bytes, from: 0, to: bytes.count) != nil
                || hostMarks.contains { ByteScan.firstIndex(ofCaseless: $0, in: bytes, from: 0) != nil }
                || pathMarks.contains { ByteScan.firstIndex(of: $0, in: bytes, from: 0) != nil }
        }
    }

    private static let hostMarks = [Array("youtu".utf8), Array("vimeo".utf8)]
    private static let pathMarks = [Array("/videos/".utf8), Array("/w/".utf8)]

    /// Letters, digits and `-`, at least `minimum` long (no dot: `/w/index.php` is a wiki).
    private static func isIdentifier(_ text: Substring, _ minimum: Int) -> Bool {
        text.count >= minimum && text.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
    }

    /// Enclosures no browser plays and no reader wants offered: Flash and BitTorrent files.
    static func isUnplayable(type: String?, url: String) -> Bool {
        let type = type?.lowercased() ?? ""
        if type == "application/x-shockwave-flash" || type == "application/x-bittorrent"
            || type == "application/futuresplash"
        {
            return true
        }
        let ext = URL(string: url)?.pathExtension.lowercased() ?? ""
        return ext == "swf" || ext == "torrent"
    }
}
