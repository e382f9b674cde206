import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FeedParser.TextEncoding {
    /// The encoding a charset label names, or nil when it names none this system can decode.
    ///
    /// First as browsers read labels (the WHATWG Encoding Standard's table, because that is how feed
    /// authors checked their feeds): `ISO-8859-1`, `latin1` and `US-ASCII` mean windows-1252,
    /// `ISO-8859-9` means windows-1254, GB2312/GBK mean GB18030, Shift_JIS/EUC-KR/Big5 mean their
    /// Microsoft/HKSCS supersets. Then, for every other label, as people spell it: case, `_`, `-`,
    /// `.`, `:` and spaces do not matter (`windows_1251`, `ISO8859_2`), `cs` and `x-` prefixes are
    /// dropped (`csIBM861`, `x-mac-cyrillic`), code pages are found as `cpNNN`, `ibmNNN`, `NNN` or
    /// `windows-NNN`, and the other names Python and Java use (`cp_is`, `macroman`, `maclatin2`,
    /// `euc_cn`) have a table; what remains is asked of iconv (glibc's `iconv_open`) as written.
    init?(label: String) {
        let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'")))
        // Labels are short ASCII names; anything else (or iconv's `//` options) is not a label.
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64,
            trimmed.utf8.allSatisfy({ byte in
                byte < 0x80 && (Self.isAlphanumeric(byte) || "-_.:() +".utf8.contains(byte))
            })
        else { return nil }
        let lower = trimmed.lowercased()
        if let name = Self.whatwgLabels[lower] {
            self = Self.encoding(named: name)
            return
        }
        let key = Self.looseKey(lower)
        var keys = [key]
        for prefix in ["x", "cs"] where key.hasPrefix(prefix) && key.count > prefix.count + 1 {
            keys.append(String(key.dropFirst(prefix.count)))
        }
        for candidate in keys {
            if let name = Self.looseWHATWGLabels[candidate] {
                self = Self.encoding(named: name)
                return
            }
            if let name = Self.aliases[candidate] {
                if let encoding = Self.iconvEncoding(name) {
                    self = encoding
                    return
                }
            }
        }
        for candidate in keys {
            for name in Self.codePageNames(candidate) {
                if let encoding = Self.iconvEncoding(name) {
                    self = encoding
                    return
                }
            }
        }
        let hyphenated = String(trimmed.uppercased().map { $0 == "_" || $0 == " " ? "-" : $0 })
        for name in [trimmed.uppercased(), hyphenated] + keys.map({ $0.uppercased() }) {
            if let encoding = Self.iconvEncoding(name) {
                self = encoding
                return
            }
        }
        return nil
    }

    /// `name` as iconv knows it, or nil; UTF-8 and windows-1252 are decoded in-house.
    private static func iconvEncoding(_ name: String) -> Self? {
        switch name {
        case "UTF-8": return .utf8
        case "WINDOWS-1252": return .windows1252
        default: return isSupportedByIconv(name) ? .iconv(name) : nil
        }
    }

    static func isSupportedByIconv(_ name: String) -> Bool {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return false }
        iconv_close(converter)
        return true
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Lowercase letters and digits only: `ISO_8859-1` and `iso8859 1` are both `iso88591`.
    private static func looseKey(_ lower: String) -> String {
        String(String.UnicodeScalarView(lower.unicodeScalars.filter { $0.isASCII && isAlphanumeric(UInt8($0.value)) }))
    }

    /// `cp861`, `ibm861`, `861`, `pc861`, `dos-861`, `windows-874`, `ms932`… → iconv names for the
    /// code page number.
    private static func codePageNames(_ key: String) -> [String] {
        let digits = key.drop { !$0.isNumber }
        let prefix = key.prefix(key.count - digits.count)
        guard (3...5).contains(digits.count), digits.allSatisfy(\.isNumber),
            ["", "cp", "ibm", "pc", "dos", "oem", "ms", "windows", "win", "codepage", "ccsid"].contains(prefix)
        else { return [] }
        return ["CP\(digits)", "IBM\(digits)", "WINDOWS-\(digits)"]
    }

    /// The decoder for a WHATWG encoding name.
    private static func encoding(named name: String) -> Self {
        switch name {
        case "UTF-8": .utf8
        case "windows-1252": .windows1252
        // The Standard decodes these as one U+FFFD (a defence for HTML, where the bytes could hide
        // markup); a feed is decoded before it is parsed, so iconv reads them, or the label is unknown.
        case "replacement": .iconv("ISO-2022-KR")
        default: .iconv(whatwgToIconv[name] ?? name.uppercased())
        }
    }

    /// WHATWG encoding names whose iconv name differs from the uppercased WHATWG name.
    private static let whatwgToIconv: [String: String] = [
        "ISO-8859-8-I": "ISO-8859-8",  // logical order is a display matter; the bytes are the same
        "KOI8-U": "KOI8-RU",  // the Standard's koi8-u has KOI8-RU's ў/Ў
        "macintosh": "MACINTOSH", "x-mac-cyrillic": "MAC-CYRILLIC", "GBK": "GB18030", "gb18030": "GB18030",
        "Big5": "BIG5-HKSCS", "Shift_JIS": "CP932", "EUC-KR": "CP949",
    ]

    /// Every label of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#names-and-labels),
    /// lowercased, → its encoding's name. `x-user-defined` is left out (no feed uses it).
    static let whatwgLabels: [String: String] = {
        let encodings: [String: [String]] = [
            "UTF-8": ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"],
            "IBM866": ["866", "cp866", "csibm866", "ibm866"],
            "ISO-8859-2": [
                "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987",
                "l2", "latin2",
            ],
            "ISO-8859-3": [
                "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988",
                "l3", "latin3",
            ],
            "ISO-8859-4": [
                "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988",
                "l4", "latin4",
            ],
            "ISO-8859-5": [
                "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5",
                "iso_8859-5:1988",
            ],
            "ISO-8859-6": [
                "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6",
                "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6",
                "iso_8859-6:1987",
            ],
            "ISO-8859-7": [
                "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7",
                "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek",
            ],
            "ISO-8859-8": [
                "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8",
                "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual",
            ],
            "ISO-8859-8-I": ["csiso88598i", "iso-8859-8-i", "logical"],
            "ISO-8859-10": ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"],
            "ISO-8859-13": ["iso-8859-13", "iso8859-13", "iso885913"],
            "ISO-8859-14": ["iso-8859-14", "iso8859-14", "iso885914"],
            "ISO-8859-15": ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"],
            "ISO-8859-16": ["iso-8859-16"],
            "KOI8-R": ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"],
            "KOI8-U": ["koi8-ru", "koi8-u"],
            "macintosh": ["csmacintosh", "mac", "macintosh", "x-mac-roman"],
            "windows-874": ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"],
            "windows-1250": ["cp1250", "windows-1250", "x-cp1250"],
            "windows-1251": ["cp1251", "windows-1251", "x-cp1251"],
            "windows-1252": [
                "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
                "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252",
                "x-cp1252",
            ],
            "windows-1253": ["cp1253", "windows-1253", "x-cp1253"],
            "windows-1254": [
                "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
                "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254",
            ],
            "windows-1255": ["cp1255", "windows-1255", "x-cp1255"],
            "windows-1256": ["cp1256", "windows-1256", "x-cp1256"],
            "windows-1257": ["cp1257", "windows-1257", "x-cp1257"],
            "windows-1258": ["cp1258", "windows-1258", "x-cp1258"],
            "x-mac-cyrillic": ["x-mac-cyrillic", "x-mac-ukrainian"],
            "GBK": [
                "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58",
                "x-gbk",
            ],
            "gb18030": ["gb18030"],
            "Big5": ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"],
            "EUC-JP": ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"],
            "ISO-2022-JP": ["csiso2022jp", "iso-2022-jp"],
            "Shift_JIS": [
                "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis",
            ],
            "EUC-KR": [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949",
            ],
            "replacement": ["csiso2022kr", "iso-2022-kr"],
            "UTF-16BE": ["unicodefffe", "utf-16be"],
            "UTF-16LE": ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"],
        ]
        var table: [String: String] = [:]
        for (name, labels) in encodings {
            for label in labels { table[label] = name }
        }
        return table
    }()

    /// `whatwgLabels` by `looseKey`, for labels spelled with other separators or case.
    private static let looseWHATWGLabels: [String: String] = {
        var table: [String: String] = [:]
        for (label, name) in whatwgLabels { table[looseKey(label)] = name }
        return table
    }()

    /// Other labels in use (Python's codec aliases, Java's and IANA's names), by `looseKey`, → the
    /// iconv name. ASCII's many names mean windows-1252, as `us-ascii` does for browsers.
    private static let aliases: [String: String] = {
        let groups: [String: [String]] = [
            "WINDOWS-1252": [
                "646", "us", "iso646us", "cp367", "ibm367", "csascii", "isoir6", "ansix341986", "iso646irv1991",
                "latin", "8859", "iso8859", "88591", "msansi", "ansi", "isolatin1", "latin1252",
            ],
            "UTF-8": ["u8", "utf", "utf8ucs2", "utf8ucs4", "cp65001"],
            "IBM437": ["437", "cspc8codepage437"],
            "IBM850": ["cspc850multilingual"],
            "IBM852": ["cspcp852"],
            "IBM861": ["cpis"],
            "IBM862": ["cspc862latinhebrew"],
            "IBM869": ["cpgr"],
            "IBM775": ["cspc775baltic"],
            "MACINTOSH": ["macroman", "macintoshroman"],
            "MAC-CYRILLIC": ["maccyrillic"],
            "MACUKRAINIAN": ["macukrainian", "macukraine"],
            "MAC-CENTRALEUROPE": [
                "maccentraleurope", "maclatin2", "maccenteuro", "macce", "maccentraleurroman", "maccentraleuropean",
            ],
            "MAC-IS": ["maciceland", "macicelandic", "macis"],
            "MAC-SAMI": ["macsami"],
            "EUC-JP": ["ujis", "eucjis", "japanese", "xeucjp"],
            "CP932": ["shiftjis", "sjis", "mskanji", "windows31j", "cp943", "ibm943"],
            "CP949": ["euckr", "ksx1001", "ksc56011987", "uhc", "windows949", "ms949"],
            "GB18030": ["euccn", "eucgb2312cn", "gb231280", "gb2312", "cp936", "ms936", "windows936", "gbk", "936"],
            "BIG5-HKSCS": ["big5tw", "big5hkscs", "hkscs", "cp950", "ms950", "windows950", "950"],
            "TIS-620": ["tis620", "tis6200", "tis62025291", "tis62025330", "thai"],
            "RK1048": ["kz1048", "strk10482002"],
            "PT154": ["ptcp154", "cp154", "cyrillicasian"],
            "HP-ROMAN8": ["roman8", "r8", "cshproman8"],
            "UTF-16LE": ["utf16le", "ucs2le", "unicodelittleunmarked"],
            "UTF-16BE": ["utf16be", "ucs2be", "unicodebigunmarked"],
            "UTF-32LE": ["utf32le"],
            "UTF-32BE": ["utf32be"],
            "UTF-32": ["utf32", "ucs4"],
            "UTF-16": ["utf16", "u16"],
        ]
        var table: [String: String] = [:]
        for (name, labels) in groups {
            for label in labels { table[label] = name }
        }
        return table
    }()
}
