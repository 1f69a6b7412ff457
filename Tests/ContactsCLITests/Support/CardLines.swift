import Foundation

/// Just enough reading and writing of vCard content lines for tests that play a phone editing
/// cards on a server, or that check what a server or an export holds.
///
/// ```swift
/// var lines = CardLines.lines(card.data)          // unfolded
/// lines.removeAll { CardLines.name(of: $0) == "NOTE" }
/// let fn = CardLines.first("FN", in: lines)
/// let data = CardLines.data(lines)                 // CRLF line ends
/// ```
enum CardLines {
    /// A card's content lines, unfolded.
    static func lines(_ data: Data) -> [String] { lines(String(decoding: data, as: UTF8.self)) }

    /// The content lines of one or more cards, unfolded.
    static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n ", with: "")
            .replacingOccurrences(of: "\n\t", with: "").split(separator: "\n").map(String.init)
    }

    /// The cards of an export, each as its lines.
    static func cards(_ text: String) -> [[String]] {
        var cards: [[String]] = []
        for line in lines(text) {
            if line.uppercased() == "BEGIN:VCARD" { cards.append([]) }
            if !cards.isEmpty { cards[cards.count - 1].append(line) }
        }
        return cards
    }

    /// A card's bytes: the lines with CR LF line ends.
    static func data(_ lines: [String]) -> Data {
        Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A line's property name in capitals, without its group (`item1.`) and parameters.
    static func name(of line: String) -> String {
        let head = line.prefix { $0 != ":" }.prefix { $0 != ";" }
        return String(head.split(separator: ".").last ?? head).uppercased()
    }

    /// A line's value: everything after the first colon, as written.
    static func value(of line: String) -> String {
        line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]) } ?? ""
    }

    /// The value of the first line with this property name.
    static func first(_ property: String, in lines: [String]) -> String? {
        lines.first { name(of: $0) == property }.map(value(of:))
    }

    /// Whether a card is a group card, in Apple's form or RFC 6350's.
    static func isGroup(_ lines: [String]) -> Bool {
        ["KIND", "X-ADDRESSBOOKSERVER-KIND"].contains { first($0, in: lines)?.lowercased() == "group" }
    }

    /// A phone number's digits: numbers are compared as digits, whatever spacing a side writes.
    static func digits(_ number: String) -> String {
        String(number.filter(\.isASCII).filter(\.isNumber))
    }
}
