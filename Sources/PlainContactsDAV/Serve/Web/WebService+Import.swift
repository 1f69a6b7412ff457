#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// Moving in: a vCard, CSV or LDIF file uploaded into a book, imported by the store's import
/// (the operation of `contacts import`) in one save through the book's writer, then its report.
extension WebService {
    /// The people each list of the report names, at most.
    static let reportedNames = 200

    /// `GET …/import`: the upload form.
    func importPage(_ target: CardDAVService.Target, signed: WebHTML.Signed, problem: String? = nil, status: Int = 200) -> HTTPServerResponse {
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        let limit = WebForm.maximumBodySize / (1024 * 1024)
        var body = "<p><a href=\"./\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n<h1>Import a file</h1>\n"
        body += "<p>A vCard (.vcf), CSV (Google, Outlook, Thunderbird, or any sheet with a Name, Email or Phone column) "
        body += "or LDIF file, of at most \(limit) MB. People who are already in the book, by UID or by name, are merged "
        body += "unless you choose otherwise.</p>\n"
        body += "<form method=\"post\" action=\"import\" enctype=\"multipart/form-data\" class=\"import\">\n" + WebHTML.tokenField(signed.formToken)
        let describedBy = problem == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"file-problem\""
        body += "<label for=\"file\">File to import</label>\n"
        body += "<input type=\"file\" id=\"file\" name=\"file\" required accept=\".vcf,.vcard,.csv,.tsv,.ldif,.ldi,text/vcard,text/csv\"\(describedBy)>\n"
        if let problem { body += "<p class=\"error\" id=\"file-problem\" role=\"alert\">\(WebHTML.escaped(problem))</p>\n" }
        body += "<fieldset><legend>Someone already in the book</legend>\n"
        for (value, text) in [("merge", "Merge the file's values into them"), ("new", "Add them again as another person"), ("skip", "Leave them as they are")] {
            let checked = value == "merge" ? " checked" : ""
            body += "<label class=\"check\"><input type=\"radio\" name=\"onMatch\" value=\"\(value)\"\(checked)> \(text)</label>\n"
        }
        body += "</fieldset>\n<label class=\"check\"><input type=\"checkbox\" name=\"skipInvalid\" value=\"1\"> "
        body += "Leave out malformed cards instead of importing nothing</label>\n"
        body += "<p class=\"actions\"><button type=\"submit\">Import</button> <a href=\"./\">Cancel</a></p>\n</form>"
        return Self.page(status, "Import a file", signed: signed, body)
    }

    /// `POST …/import`: imports the file sent, then shows what was added, merged and skipped;
    /// the form again with the problem beside the file (422) when nothing could be imported.
    func importFile(_ target: CardDAVService.Target, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let file = body.files["file"], !file.data.isEmpty else {
            return importPage(target, signed: signed, problem: "Choose a file to import.", status: 422)
        }
        let source = Self.fileName(file.fileName)
        let policy: VCardMatchPolicy =
            switch body["onMatch"] {
            case "new": .createNew
            case "skip": .skip
            default: .merge
            }
        let options = VCardImportOptions(onMatch: policy, skipInvalid: body["skipInvalid"] != nil)
        let report: VCardImportReport
        do {
            report = try target.book.writer.importContacts(
                file.data, source: source, options: options, client: CardDAVWriter.Client(user: session.user))
        } catch let error as InterchangeError {
            return importPage(target, signed: signed, problem: "Nothing was imported: \(error.description)", status: 422)
        } catch let error as ContactsError {
            return importPage(target, signed: signed, problem: "Nothing was imported: \(error.description)", status: 422)
        } catch {
            return Self.page(500, "Not imported", signed: signed, "<h1>Not imported</h1>\n<p class=\"error\">The server log says why.</p>")
        }
        return importReport(report, source: source, target: target, signed: signed)
    }

    /// The report of an import: the counts, then the people in each list, each a link.
    private func importReport(_ report: VCardImportReport, source: String, target: CardDAVService.Target, signed: WebHTML.Signed) -> HTTPServerResponse {
        let book = try? AddressBook(url: target.book.layout.root)
        let imported = report.added.count + report.updated.count
        var body = "<p><a href=\"./\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n"
        body += "<h1>Imported \(imported) \(imported == 1 ? "person" : "people")</h1>\n"
        body += "<p role=\"status\">From \(WebHTML.escaped(source)): \(report.added.count) added, \(report.updated.count) matched and merged, "
        body += "\(report.skipped.count) matched and skipped"
        if !report.groupsCreated.isEmpty { body += "; groups created: \(WebHTML.escaped(report.groupsCreated.joined(separator: ", ")))" }
        body += ".</p>\n"
        for (title, ids) in [("Added", report.added), ("Matched and merged", report.updated), ("Matched and skipped", report.skipped)] where !ids.isEmpty {
            body += "<h2>\(title)</h2>\n<ul class=\"people\">\n"
            for id in ids.prefix(Self.reportedNames) {
                let name = book?.person(withID: id)?.compositeName ?? "(no name)"
                body += "<li><a href=\"people/\(id.rawValue)\">\(WebHTML.escaped(name))</a></li>\n"
            }
            if ids.count > Self.reportedNames { body += "<li class=\"muted\">and \(ids.count - Self.reportedNames) more</li>\n" }
            body += "</ul>\n"
        }
        for (title, notes) in [("Malformed cards left out", report.invalidCards), ("Warnings", report.warnings)] where !notes.isEmpty {
            body += "<h2>\(title)</h2>\n<ul>\n"
            for note in notes.prefix(Self.reportedNames) { body += "<li>\(WebHTML.escaped(note.description))</li>\n" }
            body += "</ul>\n"
        }
        if let error = report.membershipError {
            body += "<p class=\"error\">Some group memberships could not be saved: \(WebHTML.escaped(error.description))</p>\n"
        }
        return Self.page(200, "Imported \(imported) people", signed: signed, body)
    }

    /// The name of an uploaded file as the import and its commit name it: its last path
    /// component, without control characters, at most 80 characters; `upload` when it has none.
    static func fileName(_ sent: String?) -> String {
        let last = (sent ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { !$0.properties.generalCategory.isControl }.map(Character.init).prefix(80))
        return clean.trimmingCharacters(in: .whitespaces).isEmpty ? "upload" : clean
    }
}

extension Unicode.GeneralCategory {
    /// Whether the category is a control or format character.
    fileprivate var isControl: Bool { self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator }
}
