#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Duplicates on the web pages: the pairs `contacts duplicates` finds
/// (``AddressBook/likelyDuplicates()``), a pair side by side with one choice per property that
/// differs, and their merge as one change
/// (``CardDAVWriter/merge(personWithKey:into:ifMatch:choosing:client:)``).
extension WebService {
    /// `GET …/duplicates/`: each group's first person paired with each other one.
    func duplicatesPage(_ target: CardDAVService.Target, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let book = try? AddressBook(url: target.book.layout.root) else { return Self.unreadable(signed) }
        var body = "<p><a href=\"../\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n<h1>Duplicates</h1>\n"
        let pairs = book.likelyDuplicates().flatMap { group in group.dropFirst().map { (group[0], $0) } }
        if pairs.isEmpty { body += "<p class=\"muted\">Nobody seems to be in the book twice.</p>\n" }
        body += "<ul class=\"people\">\n"
        for (first, second) in pairs {
            body += "<li><a href=\"\(first.recordID.rawValue)/\(second.recordID.rawValue)\">"
            body += "\(WebHTML.escaped(first.compositeName ?? "(no name)")) and \(WebHTML.escaped(second.compositeName ?? "(no name)"))"
            body += "<span class=\"detail\">IDs \(first.recordID.rawValue) and \(second.recordID.rawValue)</span></a></li>\n"
        }
        body += "</ul>"
        return Self.page(200, "Duplicates", signed: signed, body)
    }

    /// `GET …/duplicates/KEEP/OTHER`: the two people side by side; for a book the user may
    /// change, one choice per property that differs and the button that merges OTHER into KEEP.
    func mergePage(_ target: CardDAVService.Target, keep: String, other: String, signed: WebHTML.Signed, above: String = "") -> HTTPServerResponse {
        guard let (_, survivor) = Self.person(keep, in: target), let (_, duplicate) = Self.person(other, in: target),
            survivor.recordID != duplicate.recordID
        else { return Self.notFound(signed) }
        let names = (survivor.compositeName ?? "(no name)", duplicate.compositeName ?? "(no name)")
        let canChange = target.access == .readWrite
        var body = "<p><a href=\"./\">← Duplicates</a></p>\n" + above
        body += "<h1>Merge \(WebHTML.escaped(names.1)) into \(WebHTML.escaped(names.0))</h1>\n"
        body += "<p>\(WebHTML.escaped(names.0)) (ID \(survivor.recordID.rawValue)) stays and takes the values chosen below; "
        body += "\(WebHTML.escaped(names.1)) (ID \(duplicate.recordID.rawValue)) is removed. "
        body += "<a href=\"\(duplicate.recordID.rawValue)/\(survivor.recordID.rawValue)\">Keep \(WebHTML.escaped(names.1)) (ID \(duplicate.recordID.rawValue)) instead</a></p>\n"
        if canChange {
            body += "<form method=\"post\" action=\"\(duplicate.recordID.rawValue)\" class=\"merge\">" + WebHTML.tokenField(signed.formToken)
            for (field, person) in [("etag.keep", survivor), ("etag.other", duplicate)] {
                if let etag = etag(of: person, in: target) {
                    body += "<input type=\"hidden\" name=\"\(field)\" value=\"\(WebHTML.escaped(etag))\">"
                }
            }
            body += "\n"
        }
        let comparison = AddressBook.mergeComparison(survivor, duplicate)
        for row in comparison where row.differs {
            body += choiceHTML(row, survivor: survivor, duplicate: duplicate, names: names, enabled: canChange)
        }
        let same = comparison.filter { !$0.differs && !$0.survivor.isEmpty }
        if !same.isEmpty {
            body += "<h2>The same in both</h2>\n<dl class=\"person\">\n"
            for row in same {
                body += "<dt>\(WebHTML.escaped(row.property.localizedName))</dt><dd>\(Self.valuesHTML(row.survivor))</dd>\n"
            }
            body += "</dl>\n"
        }
        if canChange {
            body += "<p>Groups: \(WebHTML.escaped(names.0)) joins the groups of both.</p>\n"
            body += "<p class=\"actions\"><button type=\"submit\">Merge</button> <a href=\"./\">Cancel</a></p></form>"
        }
        return Self.page(200, "Merge \(names.1) into \(names.0)", signed: signed, body)
    }

    /// One property that differs: the two values side by side, each a radio button, and for a
    /// multi-value a third that keeps both. Checked: both for a multi-value, else the survivor's
    /// value unless it has none.
    private func choiceHTML(
        _ row: (property: PropertyID, survivor: [String], duplicate: [String], differs: Bool), survivor: Person, duplicate: Person,
        names: (String, String), enabled: Bool
    ) -> String {
        let property = row.property
        let isMulti = ![.string, .timestamp, .date, .kind].contains(property.type)
        let field = "choice.\(property.key)"
        let survivorHasValue = !row.survivor.isEmpty
        let checked: PersonMergeChoice = isMulti ? .both : survivorHasValue ? .survivor : .duplicate
        var html = "<fieldset class=\"choice\"><legend>\(WebHTML.escaped(property.localizedName))</legend>\n"
        var options: [(PersonMergeChoice, String, String)] = [
            (.survivor, "\(names.0) (ID \(survivor.recordID.rawValue))", Self.valuesHTML(row.survivor)),
            (.duplicate, "\(names.1) (ID \(duplicate.recordID.rawValue))", Self.valuesHTML(row.duplicate)),
        ]
        if isMulti { options.append((.both, "Both", "all of these")) }
        for (index, (choice, whose, values)) in options.enumerated() {
            let id = "\(property.key)-\(index)"
            html += "<div class=\"option\"><input type=\"radio\" id=\"\(id)\" name=\"\(field)\" value=\"\(choice.rawValue)\""
            html += (choice == checked ? " checked" : "") + (enabled ? "" : " disabled") + ">"
            html += "<label for=\"\(id)\"><span class=\"whose\">\(WebHTML.escaped(whose))</span> \(values)</label></div>\n"
        }
        return html + "</fieldset>\n"
    }

    /// A person's values of a property as lines of text (``AddressBook/mergeComparison(_:_:)``),
    /// escaped, one per line; `none` for none.
    static func valuesHTML(_ lines: [String]) -> String {
        guard !lines.isEmpty else { return "<span class=\"muted\">none</span>" }
        return lines.map { "<span class=\"value\">" + WebHTML.escaped($0) + "</span>" }.joined(separator: "<br>")
    }

    /// `POST …/duplicates/KEEP/OTHER`: merges OTHER into KEEP with the choices sent, as one
    /// change; then shows the person who stayed.
    func merge(_ target: CardDAVService.Target, keep: String, other: String, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let (_, survivor) = Self.person(keep, in: target), let (_, duplicate) = Self.person(other, in: target),
            let survivorKey = survivor.key, let duplicateKey = duplicate.key, survivorKey != duplicateKey
        else { return Self.notFound(signed) }
        var choices: [PropertyID: PersonMergeChoice] = [:]
        for property in AddressBook.mergeComparison(survivor, duplicate).filter({ $0.differs }).map({ $0.property }) {
            if let choice = body["choice.\(property.key)"].flatMap(PersonMergeChoice.init(rawValue:)) { choices[property] = choice }
        }
        var etags: [RecordKey: String] = [:]
        etags[survivorKey] = body["etag.keep"]
        etags[duplicateKey] = body["etag.other"]
        do {
            try target.book.writer.merge(
                personWithKey: duplicateKey, into: survivorKey, ifMatch: etags, choosing: choices, client: CardDAVWriter.Client(user: session.user))
            return Self.redirect(to: Self.bookPath(target.book.name) + "people/\(survivor.recordID.rawValue)")
        } catch is CardDAVWriter.EditConflict {
            let note = "<p class=\"error\" role=\"alert\">Someone changed one of them since the page was shown; look again before merging.</p>\n"
            var response = mergePage(target, keep: keep, other: other, signed: signed, above: note)
            response.status = 409
            return response
        } catch {
            return Self.page(500, "Not merged", signed: signed, "<h1>Not merged</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }
}
