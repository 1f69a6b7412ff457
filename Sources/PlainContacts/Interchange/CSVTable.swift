/// The rows of a CSV file (RFC 4180, read leniently), each with the line it starts on.
///
/// The separator is found from the header row: a comma, a semicolon (spreadsheets in
/// countries that write decimal commas) or a tab (Thunderbird's and others' tab-separated
/// exports), whichever it has most of outside quotes. Quoted cells may hold separators, quotes
/// written twice, and line breaks. What RFC 4180 does not allow is read as it was meant, with a
/// warning: a quote inside an unquoted cell is kept as a character; text after a closing quote
/// is added to the cell; a quote left open at the end of the file closes there.
///
/// ```swift
/// var log = ConversionLog(source: "google.csv", strict: false)
/// let table = try CSVTable(parsing: "Name,Email\n\"Bell, Katie\",k@x.example\n", log: &log)
/// table.rows[1].cells   // ["Bell, Katie", "k@x.example"]
/// table.rows[1].line    // 2
/// ```
struct CSVTable {
    /// One row: its cells, and the 1-based line of the file it starts on.
    struct Row {
        var cells: [String]
        var line: Int
    }

    /// Every row that is not blank, the header first.
    private(set) var rows: [Row] = []
    /// The separator the file uses.
    private(set) var separator: UInt8 = UInt8(ascii: ",")

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 10
    private static let carriageReturn: UInt8 = 13

    /// Reads every row of `text`.
    ///
    /// - Throws: when `log` is strict, ``PlainContactsError/Code/malformedInput`` at the first cell
    ///   that is not well formed.
    init(parsing text: String, log: inout ConversionLog) throws {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        separator = Self.separator(of: bytes)
        try read(bytes, log: &log)
    }

    /// The separator the header row holds most of outside quotes; a comma when it holds none.
    private static func separator(of bytes: [UInt8]) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for byte in bytes {
            if byte == quote {
                quoted.toggle()
            } else if !quoted, byte == lineFeed || byte == carriageReturn {
                break
            } else if !quoted, counts[byte] != nil {
                counts[byte, default: 0] += 1
            }
        }
        let tab = counts[UInt8(ascii: "\t")] ?? 0
        let comma = counts[UInt8(ascii: ",")] ?? 0
        let semicolon = counts[UInt8(ascii: ";")] ?? 0
        if tab > 0, tab >= comma, tab >= semicolon { return UInt8(ascii: "\t") }
        if semicolon > comma { return UInt8(ascii: ";") }
        return UInt8(ascii: ",")
    }

    private mutating func read(_ bytes: [UInt8], log: inout ConversionLog) throws {
        var line = 1
        var rowLine = 1
        var cells: [String] = []
        var cell: [UInt8] = []
        var index = 0
        var atCellStart = true
        var rowHasContent = false
        let count = bytes.count

        func endCell() {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            atCellStart = true
        }
        func endRow() {
            endCell()
            if rowHasContent || cells.count > 1 { rows.append(Row(cells: cells, line: rowLine)) }
            cells = []
            rowHasContent = false
        }

        while index < count {
            let byte = bytes[index]
            if atCellStart, byte == Self.quote {
                // A quoted cell: up to the closing quote, quotes written twice standing for one.
                rowHasContent = true
                let openedOn = line
                index += 1
                var closed = false
                while index < count {
                    let inner = bytes[index]
                    if inner == Self.quote {
                        if index + 1 < count, bytes[index + 1] == Self.quote {
                            cell.append(Self.quote)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    if inner == Self.lineFeed || (inner == Self.carriageReturn && (index + 1 >= count || bytes[index + 1] != Self.lineFeed)) {
                        line += 1
                    }
                    cell.append(inner)
                    index += 1
                }
                if !closed {
                    try log.recover(
                        "a quoted cell that begins here has no closing quote; it was closed at the end of the file",
                        line: openedOn)
                }
                atCellStart = false
                // Text between the closing quote and the separator belongs to the cell.
                var strayStart: Int?
                while index < count, bytes[index] != separator, bytes[index] != Self.lineFeed,
                    bytes[index] != Self.carriageReturn
                {
                    if bytes[index] != UInt8(ascii: " ") || strayStart != nil { strayStart = strayStart ?? index }
                    if strayStart != nil { cell.append(bytes[index]) }
                    index += 1
                }
                if strayStart != nil {
                    try log.recover("text after a quoted cell's closing quote was added to the cell", line: line)
                }
                continue
            }
            switch byte {
            case separator:
                rowHasContent = true
                endCell()
                index += 1
            case Self.carriageReturn, Self.lineFeed:
                endRow()
                if byte == Self.carriageReturn, index + 1 < count, bytes[index + 1] == Self.lineFeed { index += 1 }
                index += 1
                line += 1
                rowLine = line
            default:
                if byte == Self.quote {
                    try log.recover("a quote inside an unquoted cell was kept as a character", line: line)
                }
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") { rowHasContent = true }
                cell.append(byte)
                atCellStart = false
                index += 1
            }
        }
        if rowHasContent || !cells.isEmpty || !cell.isEmpty { endRow() }
    }
}
