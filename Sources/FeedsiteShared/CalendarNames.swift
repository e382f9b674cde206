import Foundation

/// Month and weekday names: the English ones feedsite writes (archive pages, page dates, RSS
/// dates), and the ones it reads in dates, full and abbreviated, in the languages feeds write them
/// in: English, German, French, Spanish, Italian, Dutch, Portuguese, Swedish (Danish and Norwegian
/// share most), Russian, Greek and Hungarian. The one table of names in the code base.
///
/// Reading keys are lowercase, as `String.lowercased()` gives them, with and without accents where
/// feeds drop them (`fevrier`, `marco`); abbreviations are listed as written without their dot.
package enum CalendarNames {
    /// `January` … `December`, as archive pages name their months.
    package static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `Jan` … `Dec`, as page dates and RFC 822 dates write them.
    package static let monthAbbreviations = monthNames.map { String($0.prefix(3)) }

    /// `Sunday` … `Saturday` (Sunday first, as `Calendar` and `CivilTime` number weekdays), as the
    /// day headings of list pages name their days.
    package static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `Sun` … `Sat`, for RFC 822 dates.
    package static let weekdayAbbreviations = weekdayNames.map { String($0.prefix(3)) }

    /// Name → month number (1–12).
    package static let months: [String: Int] = {
        let names: [[String]] = [
            [
                "january", "jan", "januar", "jänner", "jän", "janvier", "janv", "enero", "ene", "gennaio", "gen",
                "januari", "janeiro", "январь", "января", "янв", "ιανουάριος", "ιανουαρίου", "ιαν", "január",
            ],
            [
                "february", "feb", "februar", "feber", "février", "fevrier", "févr", "fevr", "fév", "fev", "febrero",
                "febbraio", "februari", "fevereiro", "февраль", "февраля", "фев", "февр", "φεβρουάριος",
                "φεβρουαρίου", "φεβ", "február",
            ],
            [
                "march", "mar", "märz", "mär", "mrz", "mars", "marzo", "maart", "mrt", "maa", "março", "marco", "март",
                "марта", "мар", "μάρτιος", "μαρτίου", "μάρ", "μαρ", "március", "márc",
            ],
            [
                "april", "apr", "avril", "avr", "abril", "abr", "aprile", "апрель", "апреля", "апр", "απρίλιος",
                "απριλίου", "απρ", "április", "ápr",
            ],
            [
                "may", "mai", "mayo", "maggio", "mag", "mei", "maio", "maj", "май", "мая", "μάιος", "μαΐου", "μαΐ",
                "μάι", "μαι", "május", "máj",
            ],
            [
                "june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho", "июнь", "июня", "июн", "ιούνιος",
                "ιουνίου", "ιούν", "ιουν", "június", "jún",
            ],
            [
                "july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho", "июль", "июля", "июл",
                "ιούλιος", "ιουλίου", "ιούλ", "ιουλ", "július", "júl",
            ],
            [
                "august", "aug", "août", "aout", "agosto", "ago", "augustus", "augusti", "август", "августа", "авг",
                "αύγουστος", "αυγούστου", "αύγ", "αυγ", "augusztus",
            ],
            [
                "september", "sep", "sept", "septembre", "septiembre", "setiembre", "set", "settembre", "setembro",
                "сентябрь", "сентября", "сен", "сент", "σεπτέμβριος", "σεπτεμβρίου", "σεπ", "szeptember", "szept",
            ],
            [
                "october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "out", "октябрь",
                "октября", "окт", "οκτώβριος", "οκτωβρίου", "οκτ", "október",
            ],
            [
                "november", "nov", "novembre", "noviembre", "novembro", "ноябрь", "ноября", "ноя", "нояб",
                "νοέμβριος", "νοεμβρίου", "νοέ", "νοε",
            ],
            [
                "december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre", "dic", "dicembre",
                "dezembro", "декабрь", "декабря", "дек", "δεκέμβριος", "δεκεμβρίου", "δεκ",
            ],
        ]
        var table: [String: Int] = [:]
        for (index, group) in names.enumerated() {
            for name in group { table[name] = index + 1 }
        }
        return table
    }()

    /// Weekday names and abbreviations (they carry no information a date needs, so only their
    /// recognition matters). `mar` is here too: Tuesday in French, Spanish and Italian.
    package static let weekdays: Set<String> = [
        // English
        "monday", "mon", "tuesday", "tue", "tues", "wednesday", "wed", "thursday", "thu", "thur", "thurs", "friday",
        "fri", "saturday", "sat", "sunday", "sun",
        // German
        "montag", "mo", "dienstag", "di", "mittwoch", "mi", "donnerstag", "do", "freitag", "fr", "samstag",
        "sonnabend", "sa", "sonntag", "so",
        // French
        "lundi", "lun", "mardi", "mar", "mercredi", "mer", "jeudi", "jeu", "vendredi", "ven", "samedi", "sam",
        "dimanche", "dim",
        // Spanish
        "lunes", "martes", "miércoles", "miercoles", "mié", "mie", "jueves", "jue", "viernes", "vie", "sábado",
        "sabado", "sáb", "sab", "domingo", "dom",
        // Italian
        "lunedì", "lunedi", "martedì", "martedi", "mercoledì", "mercoledi", "giovedì", "giovedi", "gio", "venerdì",
        "venerdi", "sabato", "domenica",
        // Dutch
        "maandag", "ma", "dinsdag", "woensdag", "wo", "donderdag", "vrijdag", "vr", "zaterdag", "za", "zondag", "zo",
        // Portuguese
        "segunda", "seg", "terça", "terca", "ter", "quarta", "qua", "quinta", "qui", "sexta", "sex",
        // Swedish, Danish, Norwegian
        "måndag", "mån", "tisdag", "tis", "onsdag", "ons", "torsdag", "tors", "tor", "fredag", "fre", "lördag", "lör",
        "söndag", "sön", "mandag", "man", "tirsdag", "tir", "lørdag", "lør", "søndag", "søn",
        // Russian
        "понедельник", "пн", "вторник", "вт", "среда", "ср", "четверг", "чт", "пятница", "пт", "суббота", "сб",
        "воскресенье", "вс",
        // Greek
        "κυριακή", "κυρ", "δευτέρα", "δευ", "τρίτη", "τρι", "τετάρτη", "τετ", "πέμπτη", "πεμ", "παρασκευή", "παρ",
        "σάββατο", "σαβ",
        // Hungarian
        "hétfő", "kedd", "szerda", "csütörtök", "péntek", "szombat", "vasárnap",
    ]

    /// Words that join the parts of a written-out date and mean nothing by themselves: `24 de
    /// noviembre de 2026`, `den 4 maj`, `le 2 février à 10:00`, `10:00 Uhr`, `2026 г.`, `1st`.
    package static let fillers: Set<String> = [
        "de", "del", "da", "do", "le", "la", "à", "a", "om", "kl", "klo", "um", "uhr", "h", "den", "el", "the", "of",
        "on", "at", "feira", "г", "года", "в", "st", "nd", "rd", "th", "er", "t",
    ]
}
