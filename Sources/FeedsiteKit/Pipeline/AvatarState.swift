import Foundation

/// What is remembered about a feed's avatar (`FeedState.avatar`), so its icon is downloaded once
/// and then revalidated at most once a day, never on every build.
///
/// Decoding never throws: this comes from a saved (or restored, so anyone's) state, and a damaged
/// avatar record must not cost the feed its items. Whatever is missing or of the wrong type is
/// left empty, and `StateValidator` drops a record that is then unusable (the icon is fetched
/// again).
package struct AvatarState: Sendable, Hashable, Codable {
    /// What the icon was chosen from: the feed's own image URL, else its home page. When the feed
    /// names another, the icon is chosen again at once.
    package var origin: String
    /// The icon's URL (the feed's image, the page's `<link rel=icon>`, or `/favicon.ico`); nil
    /// when none could be used.
    package var source: String?
    /// Validators of the icon's last 200 response, sent back when it is revalidated.
    package var etag: String?
    package var lastModified: String?
    /// The site path of the avatar written (`avatars/<feed-slug>.webp`); nil: the monogram.
    package var file: String?
    /// When the icon was last downloaded or revalidated, or last failed to be.
    package var checked: Date
    /// Why the last attempt gave no new icon (`no avatar: …`, `kept the avatar made before: …`),
    /// shown on the status page until an icon is taken again; nil after a success.
    package var note: String? = nil

    /// A `checked` that makes the icon due at once (1970, a date the state file can hold).
    package static let never = Date(timeIntervalSince1970: 0)

    /// How long an icon is used without asking its server again.
    package static let revalidationInterval: TimeInterval = 24 * 60 * 60

    /// Whether the icon is due to be asked for again at `now`.
    package func isDue(at now: Date) -> Bool {
        now.timeIntervalSince(checked) >= Self.revalidationInterval || checked > now
    }
}

/// Decoding in an extension keeps the memberwise initialiser.
extension AvatarState {
    fileprivate enum CodingKeys: String, CodingKey {
        case origin, source, etag, lastModified, file, checked, note
    }

    package init(from decoder: any Decoder) {
        let container = try? decoder.container(keyedBy: CodingKeys.self)
        func string(_ key: CodingKeys) -> String? { (try? container?.decodeIfPresent(String.self, forKey: key)) ?? nil }
        origin = string(.origin) ?? ""
        source = string(.source)
        etag = string(.etag)
        lastModified = string(.lastModified)
        file = string(.file)
        checked = ((try? container?.decodeIfPresent(Date.self, forKey: .checked)) ?? nil) ?? Self.never
        note = string(.note)
    }
}
