import Foundation

/// One card of a vCard file as the fidelity comparison sees it: its content lines, unfolded,
/// without the lines every writer makes its own (`BEGIN`, `END`, `VERSION`, `PRODID`, `REV`).
///
/// The file is read independently of the library, forgivingly, so that the comparison does not
/// inherit the reader's mistakes: a byte order mark picks UTF-8 or UTF-16, other text that is
/// not UTF-8 is read as Windows-1252; lines end at CR LF, LF or CR; blank lines and `#` comments
/// are skipped; a line starting with a space or tab continues the one before, and so does any
/// line after a quoted-printable value ending with `=` (2.1 soft line breaks), and so do the
/// lines without `:` after a 2.1 `BASE64` value up to a blank line; a card ends at
/// `END:` or where the next `BEGIN:VCARD` starts, except a 2.1 `AGENT` card nested in it
/// (after `AGENT:`, or beginning on the `AGENT` line), which becomes the `AGENT` line's
/// escaped value, as vCard 3.0 writes it.
///
/// ```swift
/// let cards = FidelityCard.cards(in: try Data(contentsOf: url))
/// print(cards.count, cards.first?.startLine ?? 0)
/// ```
struct FidelityCard {
    /// The line of the file where the card's `BEGIN:VCARD` is, from 1.
    var startLine: Int
    /// The card's content lines, unfolded, in order.
    var lines: [FidelityLine]

    /// Lines every writer makes its own, left out of the comparison.
    static let structural: Set<String> = ["BEGIN", "END", "VERSION", "PRODID", "REV"]

    /// Whether the card describes a group (`KIND:group`, `X-ADDRESSBOOKSERVER-KIND:group`).
    var isGroup: Bool {
        lines.contains { line in
            (line.name == "KIND" || line.name == "X-ADDRESSBOOKSERVER-KIND")
                && line.key.value.trimmingCharacters(in: .whitespaces).lowercased() == "group"
        }
    }

    /// The cards of a file's bytes.
    static func cards(in data: Data) -> [FidelityCard] {
        cards(inText: text(of: data))
    }

    /// The cards of a file's text.
    static func cards(inText text: String) -> [FidelityCard] {
        var cards: [FidelityCard] = []
        var current: (startLine: Int, lines: [FidelityLine])?
        // The lines of a nested AGENT card so far, and how many of its BEGIN:VCARD are open.
        var agent: [String]?
        var agentDepth = 0
        for (number, text) in logicalLines(text) {
            let isBegin = text.prefix(6).uppercased() == "BEGIN:"
                && text.dropFirst(6).trimmingCharacters(in: .whitespaces).uppercased() == "VCARD"
            let isEnd = text.prefix(4).uppercased() == "END:"
            guard var card = current else {
                if isBegin { current = (number, []) }
                continue
            }
            if var lines = agent {
                lines.append(text)
                agentDepth += isBegin ? 1 : isEnd ? -1 : 0
                agent = lines
                if agentDepth == 0 {
                    endAgent(lines, in: &card.lines)
                    agent = nil
                }
            } else if isBegin, let last = card.lines.last, last.name == "AGENT", last.key.value.isEmpty {
                agent = [text]
                agentDepth = 1
            } else if isBegin {
                cards.append(FidelityCard(startLine: card.startLine, lines: card.lines))
                card = (number, [])
            } else if isEnd {
                cards.append(FidelityCard(startLine: card.startLine, lines: card.lines))
                current = nil
                continue
            } else {
                let line = FidelityLine(text)
                card.lines.append(line)
                if line.name == "AGENT", line.key.value.trimmingCharacters(in: .whitespaces).uppercased() == "BEGIN:VCARD" {
                    agent = ["BEGIN:VCARD"]
                    agentDepth = 1
                }
            }
            current = card
        }
        if var card = current {
            if let lines = agent { endAgent(lines, in: &card.lines) }
            cards.append(FidelityCard(startLine: card.startLine, lines: card.lines))
        }
        return cards.map { card in
            FidelityCard(startLine: card.startLine, lines: card.lines.filter { !structural.contains($0.name) })
        }
    }

    /// Makes a nested 2.1 `AGENT` card's lines the value of the card's last line, its `AGENT`,
    /// escaped as vCard 3.0 writes a card nested in `AGENT` (and as export writes it back).
    private static func endAgent(_ lines: [String], in cardLines: inout [FidelityLine]) {
        guard let last = cardLines.indices.last else { return }
        var value = ""
        for character in lines.joined(separator: "\n") {
            switch character {
            case "\\", ",", ";": value += "\\" + String(character)
            case "\n": value += "\\n"
            default: value.append(character)
            }
        }
        let head = cardLines[last].head
        cardLines[last] = FidelityLine(head + ":" + value)
    }

    /// The text of a file: UTF-8 or UTF-16 as a byte order mark says, else UTF-8 when valid,
    /// else Windows-1252.
    static func text(of data: Data) -> String {
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: Data(data.dropFirst(3)), as: UTF8.self) }
        if data.starts(with: [0xFF, 0xFE]), let text = String(data: Data(data.dropFirst(2)), encoding: .utf16LittleEndian) {
            return text
        }
        if data.starts(with: [0xFE, 0xFF]), let text = String(data: Data(data.dropFirst(2)), encoding: .utf16BigEndian) {
            return text
        }
        return String(data: data, encoding: .utf8) ?? String(data: data, encoding: .windowsCP1252)
            ?? String(decoding: data, as: UTF8.self)
    }

    /// The unfolded lines of a text with the number of the physical line each starts on.
    static func logicalLines(_ text: String) -> [(number: Int, text: String)] {
        var lines: [(number: Int, text: String)] = []
        var softBreak = false
        var base64 = false
        for (offset, physical) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            if physical.isEmpty {
                base64 = false
                continue
            }
            if let last = lines.indices.last, softBreak {
                lines[last].text.removeLast()
                lines[last].text += physical
            } else if let last = lines.indices.last, physical.first == " " || physical.first == "\t" {
                lines[last].text += physical.dropFirst()
            } else if let last = lines.indices.last, base64, !physical.contains(":") {
                lines[last].text += physical
            } else if physical.first == "#" {
                continue
            } else {
                lines.append((offset + 1, String(physical)))
                base64 = head(of: physical).contains("BASE64")
            }
            if let last = lines.last { softBreak = last.text.hasSuffix("=") && head(of: last.text).contains("QUOTED-PRINTABLE") }
        }
        return lines
    }

    /// The uppercased text before a line's first `:`.
    private static func head(of line: some StringProtocol) -> String {
        line.prefix { $0 != ":" }.uppercased()
    }
}
