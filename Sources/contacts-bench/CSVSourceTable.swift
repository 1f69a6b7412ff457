/// The rows of a CSV, TSV or semicolon-separated export, as the import fidelity measure reads
/// them: the separator that the first line uses most outside quotes, `"` quoting with `""` for
/// a quote, line breaks inside quotes kept, each row with the line it starts on.
///
/// ```swift
/// let table = CSVSourceTable("Name;Email\n\"Bell; Katie\";k@x.example\n")
/// table.rows[1].cells   // ["Bell; Katie", "k@x.example"]
/// ```
struct CSVSourceTable {
    /// One row and the 1-based line it starts on.
    struct Row {
        var line: Int
        var cells: [String]
    }

    /// The separator found.
    var separator: Character
    /// Every row, blank lines left out.
    var rows: [Row] = []

    /// Reads `text`.
    init(_ text: String) {
        separator = Self.separator(ofFirstLineOf: text)
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var characters = text.makeIterator()
        var pending: Character? = characters.next()
        func endRow() {
            cells.append(cell)
            if cells.contains(where: { !$0.isEmpty }) || cells.count > 1 { rows.append(Row(line: rowLine, cells: cells)) }
            cells = []
            cell = ""
        }
        while let character = pending {
            pending = characters.next()
            let isBreak = character == "\n" || character == "\r\n" || character == "\r"
            if quoted {
                if character == "\"" {
                    if pending == "\"" {
                        cell.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                    }
                } else {
                    if isBreak { line += 1 }
                    cell.append(character)
                }
            } else if character == "\"" && cell.isEmpty {
                quoted = true
            } else if character == separator {
                cells.append(cell)
                cell = ""
            } else if isBreak {
                endRow()
                line += 1
                rowLine = line
            } else {
                cell.append(character)
            }
        }
        if !cell.isEmpty || !cells.isEmpty { endRow() }
    }

    /// `,`, `;` or tab: whichever the first line holds most of outside quotes (`,` on a tie).
    private static func separator(ofFirstLineOf text: String) -> Character {
        var counts: [Character: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if !quoted && (character == "\n" || character == "\r\n" || character == "\r") { break }
            if !quoted, counts[character] != nil { counts[character, default: 0] += 1 }
        }
        return [",", ";", "\t"].max { counts[$0, default: 0] < counts[$1, default: 0] } ?? ","
    }
}
