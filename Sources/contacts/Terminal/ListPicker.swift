/// A full-screen list on the terminal to choose one item from: type to filter, Up and Down
/// (or Page Up and Page Down) to move, Enter to choose, 1–9 to choose one of the numbered
/// rows at once, Escape or Control-C to cancel.
///
/// It draws on the terminal's alternate screen, so the screen looks as before once it is done.
struct ListPicker {
    /// One row of the list.
    struct Item {
        var title: String
        var detail: String
    }

    /// The terminal to draw on.
    let terminal: TerminalDevice
    /// The first line: what is being chosen and how.
    let heading: String
    /// Whether typing filters the list (otherwise the query line is not shown).
    let isFilterable: Bool
    /// The items matching a query, in order.
    let items: (String) -> [Item]

    /// Shows the list and returns the index of the chosen item in `items(query)` with the
    /// query in force, or `nil` when cancelled.
    func run(query initialQuery: String = "") -> (query: String, index: Int)? {
        terminal.write("\u{1B}[?1049h")
        defer { terminal.write("\u{1B}[2J\u{1B}[H\u{1B}[?1049l") }
        return terminal.withRawMode {
            var query = initialQuery
            var shown = items(query)
            var selection = 0
            var top = 0
            while true {
                let visible = max(1, terminal.size.rows - (isFilterable ? 3 : 2))
                if selection < top { top = selection }
                if selection >= top + visible { top = selection - visible + 1 }
                draw(query: query, items: shown, selection: selection, top: top, visible: visible)
                guard let key = terminal.readKey() else { return nil }
                switch key {
                case .escape, .interrupt, .endOfInput:
                    return nil
                case .enter:
                    if !shown.isEmpty { return (query, selection) }
                case .up:
                    selection = max(0, selection - 1)
                case .down:
                    selection = min(max(0, shown.count - 1), selection + 1)
                case .pageUp:
                    selection = max(0, selection - visible)
                case .pageDown:
                    selection = min(max(0, shown.count - 1), selection + visible)
                case .character(let character) where ("1"..."9").contains(character):
                    let row = top + (Int(String(character)) ?? 1) - 1
                    if row < min(shown.count, top + visible) { return (query, row) }
                case .character(let character) where isFilterable:
                    query.append(character)
                    shown = items(query)
                    selection = 0
                case .backspace where isFilterable && !query.isEmpty:
                    query.removeLast()
                    shown = items(query)
                    selection = 0
                case .eraseLine where isFilterable:
                    query = ""
                    shown = items(query)
                    selection = 0
                default:
                    break
                }
            }
        }
    }

    private func draw(query: String, items: [Item], selection: Int, top: Int, visible: Int) {
        let columns = terminal.size.columns
        var screen = "\u{1B}[H\u{1B}[2J"
        screen += clip(heading, columns) + "\r\n"
        if isFilterable { screen += clip("Search: " + query, columns) + "\r\n" }
        if items.isEmpty {
            screen += clip(isFilterable && !query.isEmpty ? "  (nobody matches)" : "  (nothing to choose from)", columns)
        }
        let titleWidth = min(max(items.map(\.title.count).max() ?? 0, 10), max(10, columns / 2))
        for row in top..<min(items.count, top + visible) {
            let number = row - top < 9 ? "\(row - top + 1)" : " "
            let title = items[row].title.padding(to: titleWidth)
            let line = clip("\(row == selection ? ">" : " ") \(number)  \(title)  \(items[row].detail)", columns)
            screen += row == selection ? "\u{1B}[7m\(line)\u{1B}[0m" : line
            if row + 1 < min(items.count, top + visible) { screen += "\r\n" }
        }
        if isFilterable { screen += "\u{1B}[2;\(min(columns, 9 + query.count))H" }
        terminal.write(screen)
    }

    /// The text cut to the terminal's width, without control characters that could move the
    /// cursor or change the screen.
    private func clip(_ text: String, _ columns: Int) -> String {
        let printable = String(text.map { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : character
        })
        return printable.count > columns ? String(printable.prefix(max(0, columns - 1))) + "…" : printable
    }
}
