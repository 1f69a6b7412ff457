import Foundation

/// Deterministic synthetic people as vCard 3.0 text, card for card and byte for byte the same
/// as `gen_contacts.py` writes with the same count and seed.
///
/// Names come from several scripts (Latin, Japanese with phonetic readings, Korean, Cyrillic);
/// cards carry organizations, titles, up to three phones, up to two emails, sometimes an
/// address, a birthday, a note and categories.
///
/// ```swift
/// var generator = ContactGenerator(seed: 63)
/// for index in 0..<3 { print(generator.card(index).text) }
/// ```
struct ContactGenerator {
    /// The default seed of `gen_contacts.py`.
    static let defaultSeed: UInt64 = 63

    /// One generated card: its UID (the vdir file name without `.vcf`) and its CRLF text.
    struct Card {
        var uid: String
        var text: String
    }

    private static let latinFirst = [
        "Katie", "John", "Ana", "José", "Zoë", "Łukasz", "Chloé", "Mary", "Ahmed", "Priya",
        "Olivia", "Liam", "Noah", "Emma", "Søren", "Björn", "Amélie", "Dmitri", "Wei", "Fatima",
    ]
    private static let latinLast = [
        "Bell", "Appleseed", "García", "Müller", "O'Brien", "Nguyen", "Smith", "Kowalski",
        "Dubois", "Haraldsen", "Rossi", "Kim", "Patel", "Johnson", "van der Berg", "Ødegaard",
    ]
    private static let japanese = [
        ("太郎", "たろう", "山田", "やまだ"), ("花子", "はなこ", "佐藤", "さとう"), ("翔", "しょう", "鈴木", "すずき"),
        ("陽菜", "ひな", "高橋", "たかはし"), ("蓮", "れん", "田中", "たなか"), ("結衣", "ゆい", "伊藤", "いとう"),
    ]
    private static let korean = [("성광", "송"), ("민준", "김"), ("서연", "이"), ("지호", "박"), ("하은", "최")]
    private static let russian = [("Иван", "Иванов"), ("Мария", "Петрова"), ("Алексей", "Смирнов"), ("Екатерина", "Кузнецова")]
    private static let organizations = [
        "Apple Inc.", "Changwon National University", "ACME Corp", "株式会社サンプル", "ООО Ромашка", "",
    ]
    private static let titles = ["Engineer", "Manager", "研究員", "Designer"]
    private static let phoneLabels = ["CELL", "HOME", "WORK", "MAIN", "IPHONE"]
    private static let emailLabels = ["HOME", "WORK", "INTERNET"]
    private static let domains = ["com", "org", "jp", "kr"]
    private static let addresses = [
        ("1234 Laurel Street", "Atlanta", "GA", "30303", "USA"), ("1 Infinite Loop", "Cupertino", "CA", "95014", "USA"),
        ("西新宿3-20-2", "新宿区", "東京都", "163-1450", "Japan"), ("창원대학로 20", "창원시", "경상남도", "51140", "Korea"),
    ]
    private static let categories = ["Friends", "Family", "Coworkers", "창원대학교", "Team"]

    private var random: PythonRandom

    /// A generator whose cards match `gen_contacts.py --seed seed`.
    init(seed: UInt64 = ContactGenerator.defaultSeed) {
        random = PythonRandom(seed: seed)
    }

    /// The next card; `index` must count up from 0, as the cards are drawn in order.
    mutating func card(_ index: Int) -> Card {
        let uid = "gen-" + Self.padded(index, 8)
        var lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:" + uid]
        appendNames(to: &lines)
        let organization = random.choice(Self.organizations)
        if !organization.isEmpty {
            lines.append("ORG:" + Self.escape(organization))
            lines.append("TITLE:" + random.choice(Self.titles))
        }
        for _ in 0..<random.randint(0, 3) {
            let label = random.choice(Self.phoneLabels)
            let exchange = random.randint(100, 999)
            let number = random.randint(0, 9999)
            lines.append("TEL;TYPE=\(label):(555) \(Self.padded(exchange, 3))-\(Self.padded(number, 4))")
        }
        for k in 0..<random.randint(0, 2) {
            let label = random.choice(Self.emailLabels)
            lines.append("EMAIL;TYPE=\(label):user\(index).\(k)@example.\(random.choice(Self.domains))")
        }
        appendOptionalFields(to: &lines)
        lines.append("END:VCARD")
        return Card(uid: uid, text: lines.map(Self.fold).joined(separator: "\r\n") + "\r\n")
    }

    private mutating func appendNames(to lines: inout [String]) {
        let kind = random.random()
        let first: String
        let last: String
        var phonetic: (first: String, last: String)?
        if kind < 0.70 {
            first = random.choice(Self.latinFirst)
            last = random.choice(Self.latinLast)
        } else if kind < 0.82 {
            let name = random.choice(Self.japanese)
            (first, last) = (name.0, name.2)
            phonetic = (name.1, name.3)
        } else if kind < 0.92 {
            (first, last) = random.choice(Self.korean)
        } else {
            (first, last) = random.choice(Self.russian)
        }
        lines.append("N:\(Self.escape(last));\(Self.escape(first));;;")
        lines.append("FN:\(first) \(last)")
        if let phonetic {
            lines.append("X-PHONETIC-FIRST-NAME:" + phonetic.first)
            lines.append("X-PHONETIC-LAST-NAME:" + phonetic.last)
        }
    }

    private mutating func appendOptionalFields(to lines: inout [String]) {
        if random.random() < 0.4 {
            let (street, city, state, zip, country) = random.choice(Self.addresses)
            let label = random.choice(["HOME", "WORK"])
            let parts = [street, city, state, zip, country].map(Self.escape).joined(separator: ";")
            lines.append("ADR;TYPE=\(label):;;\(parts)")
        }
        if random.random() < 0.3 {
            let year = random.randint(1940, 2010)
            let month = random.randint(1, 12)
            let day = random.randint(1, 28)
            lines.append("BDAY:\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))")
        }
        if random.random() < 0.15 {
            let year = random.randint(2000, 2026)
            lines.append("NOTE:" + Self.escape("Met at the conference, \(year).\nLikes tea."))
        }
        if random.random() < 0.2 {
            lines.append("CATEGORIES:" + random.sample(Self.categories, 2).joined(separator: ","))
        }
    }

    /// `%0Nd` for a non-negative number.
    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// vCard text escaping as `gen_contacts.py` does it.
    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case ",": result += "\\,"
            case ";": result += "\\;"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// RFC 6350 folding at 75 octets, never inside a UTF-8 sequence.
    private static func fold(_ line: String) -> String {
        var pieces: [String] = []
        var current = ""
        var currentBytes = 0
        for scalar in line.unicodeScalars {
            let size = scalar.utf8.count
            if currentBytes + size > 75 {
                pieces.append(current)
                current = " "
                currentBytes = 1
            }
            current.unicodeScalars.append(scalar)
            currentBytes += size
        }
        pieces.append(current)
        return pieces.joined(separator: "\r\n")
    }
}
