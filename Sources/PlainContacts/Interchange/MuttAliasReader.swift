/// Reads contacts from a mutt or neomutt alias file: lines
/// `alias [-group NAME]... KEY ADDRESS[, ADDRESS...]`, with every address form
/// ``MailboxListParser`` reads, `#` comments (also after the addresses), blank lines, and lines
/// continued by a backslash at their end. `unalias KEY` removes an alias defined before it;
/// other muttrc commands (`set`, `source`…) are skipped with a warning.
///
/// - An alias of one address is one person: the display name (or comment) becomes `FN` and, as
///   ``InterchangeName`` splits it, `N`; the alias key becomes the nickname, as khard and
///   abook do; the address an unlabelled email.
/// - An alias of several addresses, or of an RFC 5322 group, is a group named by the key, each
///   address one person in it. A bare word without `@` that is the key of another alias stands
///   for that alias's addresses, as mutt expands it. The display name of an RFC 5322 group
///   (`quidditch` of `alias club quidditch: a@x, b@y;`) is kept with the group as
///   `X-IMPORTED-FIELD;X-FORMAT=mutt;X-NAME="display-name":quidditch`.
/// - `-group NAME` puts the alias's people in the group NAME too.
/// - A comment after a one-address alias (`alias kb Katie <k@x.example>  # met at the club`) is
///   the alias's comment, which NeoMutt shows in its alias menu: it becomes the person's note.
///   A list alias's comment is about the list: its group keeps it as
///   `X-IMPORTED-FIELD;X-FORMAT=mutt;X-NAME="comment":…`.
/// - An address met in several aliases is one person: the first name and key found are kept,
///   the groups of all of them gathered.
/// - An alias with an address that cannot be read is skipped with a warning naming its line.
///
/// ```swift
/// var log = ConversionLog(source: "aliases", strict: false)
/// let converted = try MuttAliasReader.convert("alias kb Katie Bell <k@x.example>\n", log: &log)
/// ```
enum MuttAliasReader {
    /// The format name of kept fields.
    static let format = "mutt"

    /// One `alias` command.
    private struct Alias {
        /// The alias key.
        var key: String
        /// The names of its `-group` options.
        var groups: [String]
        /// Its addresses as written (bare words not yet expanded).
        var mailboxes: [Mailbox]
        /// Whether it names several addresses or a group, and so is a group itself.
        var isList: Bool
        /// The line where the command starts.
        var line: Int
        /// The text of the `#` comment after it, if any.
        var comment: String?
        /// The display names of its RFC 5322 groups (`quidditch` of `quidditch: a@x;`).
        var displayNames: [String] = []
    }

    /// One person to write, gathered from every alias naming its address.
    private struct Draft {
        /// The display name found first, or empty.
        var name: String
        /// The address as first written.
        var address: String
        /// The key of the first one-address alias of the address.
        var nickname: String?
        /// The groups of every alias naming the address.
        var groups: [String]
        /// The line of the first alias naming the address.
        var line: Int
        /// The comments of the one-address aliases of the address.
        var notes: [String] = []
    }

    /// The cards of the people and groups of `text`.
    ///
    /// - Throws: ``PlainContactsError/Code/malformedInput`` for the first recovery when the log is
    ///   strict.
    static func convert(_ text: String, log: inout ConversionLog) throws -> ConvertedContacts {
        var aliases: [Alias] = []
        for (command, line, comment) in commands(of: text) {
            var rest = Substring(command)
            let verb = nextWord(&rest)
            switch verb {
            case "alias":
                guard let alias = parseAlias(rest, line: line, comment: comment) else {
                    try log.recover(
                        "the alias at line \(line) has an address that cannot be read; it was skipped", line: line)
                    continue
                }
                aliases.removeAll { $0.key == alias.key }
                aliases.append(alias)
            case "unalias":
                var keys: Set<String> = []
                while !rest.isEmpty {
                    let word = nextWord(&rest)
                    if word == "-group" { _ = nextWord(&rest) } else if !word.isEmpty { keys.insert(word) }
                }
                aliases.removeAll { keys.contains($0.key) || keys.contains("*") }
            default:
                try log.recover("line \(line) is not an alias (\(verb)); it was skipped", line: line)
            }
        }
        return try cards(of: aliases, log: &log)
    }

    /// The commands of the file with the line each starts at and the text of the comments on
    /// its lines: continued lines joined, blank lines and lines that are only a comment dropped.
    private static func commands(of text: String) -> [(String, Int, comment: String?)] {
        var commands: [(String, Int, comment: String?)] = []
        var pending = ""
        var comments: [String] = []
        var start = 0
        var number = 0
        let lineEnds: Set<Character> = ["\n", "\r\n", "\r"]
        func finish() {
            let command = CardBuilder.trimmed(pending)
            if !command.isEmpty { commands.append((command, start, comments.isEmpty ? nil : comments.joined(separator: "\n"))) }
            pending = ""
            comments = []
        }
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: lineEnds.contains) {
            number += 1
            if pending.isEmpty { start = number }
            let uncommented = withoutComment(line)
            let comment = CardBuilder.trimmed(String(line[uncommented.endIndex...].dropFirst()))
            if !comment.isEmpty, !CardBuilder.trimmed(String(uncommented)).isEmpty { comments.append(comment) }
            if uncommented.hasSuffix("\\") {
                pending += uncommented.dropLast()
                continue
            }
            pending += uncommented
            finish()
        }
        finish()
        return commands
    }

    /// `line` up to a `#` outside quotes, parentheses and angle brackets.
    private static func withoutComment(_ line: Substring) -> Substring {
        var quoted = false
        var depth = 0
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "\"": quoted.toggle()
            case "(", "<": if !quoted { depth += 1 }
            case ")", ">": if !quoted { depth = max(0, depth - 1) }
            case "#" where !quoted && depth == 0: return line[..<index]
            default: break
            }
        }
        return line
    }

    /// The next word of `text`, unquoted (`"..."`, `'...'`, backslash escapes), consumed with the
    /// white space before it.
    private static func nextWord(_ text: inout Substring) -> String {
        text = text.drop { $0.isWhitespace }
        var word = ""
        var quote: Character?
        while let character = text.first {
            if quote == nil, character.isWhitespace { break }
            text.removeFirst()
            if character == "\\", let next = text.popFirst() {
                word.append(next)
            } else if let open = quote, character == open {
                quote = nil
            } else if quote == nil, character == "\"" || character == "'" {
                quote = character
            } else {
                word.append(character)
            }
        }
        return word
    }

    /// The alias of the text after `alias`, or `nil` when it cannot be read.
    private static func parseAlias(_ text: Substring, line: Int, comment: String?) -> Alias? {
        var rest = text
        var groups: [String] = []
        var key = nextWord(&rest)
        while key == "-group" {
            let group = nextWord(&rest)
            guard !group.isEmpty else { return nil }
            groups.append(group)
            key = nextWord(&rest)
        }
        let list = CardBuilder.trimmed(String(rest))
        var displayNames: [String] = []
        guard !key.isEmpty, !list.isEmpty, let mailboxes = MailboxListParser.parse(list, groupNames: &displayNames),
            !mailboxes.isEmpty
        else {
            return nil
        }
        let isGroupSyntax = list.contains(":") && list.hasSuffix(";")
        return Alias(
            key: key, groups: groups, mailboxes: mailboxes, isList: mailboxes.count > 1 || isGroupSyntax, line: line,
            comment: comment, displayNames: displayNames)
    }

    /// Expands aliases that name other aliases, each alias once however often it is named.
    private struct Expander {
        /// The aliases by key.
        let byKey: [String: Alias]
        /// The expansions made so far; `nil` for an alias that cannot be expanded.
        private var done: [String: [Mailbox]?] = [:]
        /// The keys being expanded, to find loops.
        private var visiting: Set<String> = []

        /// An expander of the aliases `byKey`.
        init(byKey: [String: Alias]) {
            self.byKey = byKey
        }

        /// The mailboxes of an alias with bare words naming other aliases replaced by theirs,
        /// each address once; `nil` when a bare word names no alias or the aliases name each
        /// other in a loop.
        mutating func expanded(_ alias: Alias) -> [Mailbox]? {
            if let known = done[alias.key] { return known }
            guard visiting.insert(alias.key).inserted else { return nil }
            defer { visiting.remove(alias.key) }
            var result: [Mailbox] = []
            var seen: Set<String> = []
            func append(_ mailbox: Mailbox) {
                if seen.insert(mailbox.address.lowercased()).inserted { result.append(mailbox) }
            }
            var failed = false
            for mailbox in alias.mailboxes {
                if !mailbox.isBareWord, mailbox.address.contains("@") {
                    append(mailbox)
                } else if mailbox.isBareWord, let other = byKey[mailbox.address], let inner = expanded(other) {
                    inner.forEach(append)
                } else {
                    failed = true
                    break
                }
            }
            let expansion = failed ? nil : result
            done[alias.key] = .some(expansion)
            return expansion
        }
    }

    /// The cards of the aliases: one per address, then one per group.
    private static func cards(of aliases: [Alias], log: inout ConversionLog) throws -> ConvertedContacts {
        var expander = Expander(byKey: Dictionary(aliases.map { ($0.key, $0) }, uniquingKeysWith: { $1 }))
        var drafts: [Draft] = []
        var draftIndex: [String: Int] = [:]
        var groups: [(name: String, line: Int, kept: [KeptField])] = []
        var groupIndex: [String: Int] = [:]
        func addGroup(_ name: String, line: Int, displayNames: [String] = [], comment: String? = nil) {
            var kept = displayNames.filter { $0 != name }.map { KeptField(format: format, name: "display-name", value: $0) }
            if let comment { kept.append(KeptField(format: format, name: "comment", value: comment)) }
            if let index = groupIndex[name] {
                groups[index].kept += kept.filter { !groups[index].kept.contains($0) }
            } else {
                groupIndex[name] = groups.count
                groups.append((name, line, kept))
            }
        }
        for alias in aliases {
            guard let mailboxes = expander.expanded(alias) else {
                try log.recover(
                    "the alias at line \(alias.line) names an alias that does not exist or names it back; "
                        + "it was skipped",
                    line: alias.line)
                continue
            }
            let isList = alias.isList || alias.mailboxes.contains(where: \.isBareWord)
            var memberOf = alias.groups
            if isList { addGroup(alias.key, line: alias.line, displayNames: alias.displayNames, comment: alias.comment) }
            for name in memberOf { addGroup(name, line: alias.line) }
            if isList { memberOf.insert(alias.key, at: 0) }
            for mailbox in mailboxes {
                let id = mailbox.address.lowercased()
                let index: Int
                if let known = draftIndex[id] {
                    index = known
                    if drafts[index].name.isEmpty { drafts[index].name = mailbox.name }
                    if drafts[index].nickname == nil, !isList { drafts[index].nickname = alias.key }
                    drafts[index].groups += memberOf
                } else {
                    index = drafts.count
                    draftIndex[id] = index
                    drafts.append(
                        Draft(
                            name: mailbox.name, address: mailbox.address, nickname: isList ? nil : alias.key,
                            groups: memberOf, line: alias.line))
                }
                // A list's comment is about the list: its group keeps it (above).
                if !isList, let comment = alias.comment { drafts[index].notes.append(comment) }
            }
        }
        var builder = CardBuilder()
        for draft in drafts {
            builder.begin(line: draft.line)
            InterchangeName.add(draft.name, to: &builder, line: draft.line)
            if let nickname = draft.nickname { builder.addText("NICKNAME", nickname, line: draft.line) }
            builder.addLabelled("EMAIL", kind: .email, label: nil, value: draft.address, line: draft.line)
            builder.addGroups(draft.groups, line: draft.line)
            builder.addText("NOTE", draft.notes.joined(separator: "\n"), line: draft.line)
            builder.end()
        }
        for group in groups { builder.addGroupCard(name: group.name, line: group.line, keeping: group.kept) }
        return builder.finish(warnings: [])
    }
}
