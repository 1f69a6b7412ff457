import Foundation

/// A manual page written with the man(7) macros: a title, then sections of paragraphs,
/// literal blocks and tagged items, rendered as roff source for `man`, `mandoc` and `groff`.
///
/// Text given to it is plain: ``render()`` escapes what roff would otherwise read as a request
/// or an escape, so help text and discussions go in as they are.
///
/// ```swift
/// var page = ManualPage(name: "contacts-serve", section: 1, summary: "serve the store")
/// page.add("DESCRIPTION", [.paragraph("Runs in the foreground.")])
/// page.render()   // ".TH CONTACTS-SERVE 1 ..."
/// ```
struct ManualPage: Sendable {
    /// One piece of a section.
    enum Block: Sendable {
        /// Filled text.
        case paragraph(String)
        /// Lines shown as they are, indented: commands, configuration.
        case literal([String])
        /// An item of a list: the term in bold (an option, a command), its text below it.
        case item(term: String, argument: String?, text: String)
        /// A subsection heading.
        case subsection(String)
        /// A reference to another page, as in SEE ALSO: `contacts(1)`.
        case references([(name: String, section: Int)])
    }

    /// The page's name: `contacts-serve`.
    let name: String
    /// Its section: 1 for commands, 5 for file formats.
    let section: Int
    /// The line after the name in NAME.
    let summary: String
    /// The sections in order, each a heading and its blocks.
    private(set) var sections: [(heading: String, blocks: [Block])] = []

    /// The date every page carries: when the manual was last revised, not when it was built,
    /// so that the pages are the same bytes on every build.
    static let date = "2026-11-29"

    /// A page with no sections yet.
    init(name: String, section: Int, summary: String) {
        self.name = name
        self.section = section
        self.summary = summary
    }

    /// Adds a section at the end; a section without blocks is left out.
    mutating func add(_ heading: String, _ blocks: [Block]) {
        guard !blocks.isEmpty else { return }
        sections.append((heading, blocks))
    }

    /// The page as roff source with the man(7) macros, ending with a newline.
    func render() -> String {
        let source = "contacts \(ContactsTool.version)"
        let manual = section == 5 ? "File Formats" : "User Commands"
        var lines = [
            ".TH \(Self.quoted(name.uppercased())) \(section) \"\(Self.date)\" \"\(source)\" \"\(manual)\"",
            ".SH NAME",
            "\(Self.escapedText(name)) \\- \(Self.escapedText(summary))",
        ]
        for (heading, blocks) in sections {
            lines.append(".SH \(Self.quoted(heading))")
            for block in blocks {
                var blockLines = Self.lines(of: block)
                // A heading starts a paragraph already; `.PP` right after one is a warning.
                if blockLines.first == ".PP", let last = lines.last, last.hasPrefix(".SH ") || last.hasPrefix(".SS ") {
                    blockLines.removeFirst()
                }
                lines += blockLines
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The roff lines of one block.
    private static func lines(of block: Block) -> [String] {
        switch block {
        case let .paragraph(text):
            return [".PP"] + filled(text)
        case let .literal(literalLines):
            return [".PP", ".RS 4", ".nf"] + literalLines.map { escapedLine($0.isEmpty ? " " : $0) } + [".fi", ".RE"]
        case let .item(term, argument, text):
            // `.TP` takes its tag from the next input line, so the fonts change inside it.
            let tag = argument.map { "\\fB\(escapedText(term))\\fR \\fI\(escapedText($0))\\fR" } ?? "\\fB\(escapedText(term))\\fR"
            return [".TP", escapedLine(tag, alreadyEscaped: true)] + filled(text)
        case let .subsection(title):
            return [".SS \(quoted(title))"]
        case let .references(pages):
            let last = pages.count - 1
            return pages.enumerated().map { index, page in
                ".BR \(quoted(page.name)) (\(page.section))\(index == last ? "" : ",")"
            }
        }
    }

    /// Filled text as roff lines: one input line per line of the text, escaped, without blank
    /// lines (a blank line in filled text is a warning).
    private static func filled(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { escapedLine($0) }
    }

    /// A line of text with roff's escape character escaped, and a leading `.` or `'` kept
    /// from being read as a request.
    static func escapedLine(_ line: String, alreadyEscaped: Bool = false) -> String {
        let text = alreadyEscaped ? line : escapedText(line)
        return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }

    /// Text with each backslash written as roff's `\e`, each hyphen as `\-` (the ASCII
    /// hyphen-minus that options and commands are typed with), and each character outside
    /// ASCII as its code point (`\[u2026]`), which groff reads without a preprocessor.
    static func escapedText(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII: escaped += "\\[u" + hex(scalar.value) + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A code point as roff names it: four hexadecimal digits at least, in capitals.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A macro argument in double quotes, escaped; roff writes a double quote inside one as `\(dq`.
    static func quoted(_ text: String) -> String {
        "\"" + escapedText(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}

