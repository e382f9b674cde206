import Foundation

extension Date {
    /// This date without its fraction of a second. The saved state writes dates as ISO 8601 in whole
    /// seconds, so only a whole-second date reads back as the same date.
    package var wholeSeconds: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
