#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// A person's history on the web pages: the commits that changed their file (``StoreHistory``),
/// each with when, who, which client or command and what changed in words
/// (``PersonChangeWords``), and the restore of an earlier version as a new change
/// (``CardDAVWriter/restore(personWithKey:ifMatch:toVersion:path:client:)``).
extension WebService {
    /// `GET …/people/ID/history`: the person's versions, newest first; for a book the user may
    /// change, a button that restores each earlier version.
    func historyPage(_ target: CardDAVService.Target, id: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (book, person) = Self.person(id, in: target), let key = person.key else { return Self.notFound(signed) }
        let name = person.compositeName ?? "(no name)"
        var body = "<p><a href=\"../\(person.recordID.rawValue)\">← \(WebHTML.escaped(name))</a></p>\n"
        body += "<h1>History of \(WebHTML.escaped(name))</h1>\n"
        let path = StoreRepository.path(ofPersonWithKey: key)
        let versions: [StoreHistoryVersion]
        do {
            versions = try readHistory { try $0.versions(ofFile: path, inStoreAt: target.book.layout.root) }
        } catch {
            return Self.page(200, "History of \(name)", signed: signed, body + Self.noHistory(error))
        }
        if versions.isEmpty { body += "<p class=\"muted\">No commit holds this person yet.</p>\n" }
        let current = FileManager.default.contents(atPath: target.book.layout.root.appending(path: path).path(percentEncoded: false))
        let etag = target.access == .readWrite ? etag(of: person, in: target) : nil
        body += "<ol class=\"history\">\n"
        for version in versions {
            body += "<li>" + Self.versionHTML(version, format: book.compositeNameFormat)
            if let etag, let after = version.after, after != current {
                body += "<form method=\"post\" action=\"history\">" + WebHTML.tokenField(signed.formToken)
                body += "<input type=\"hidden\" name=\"commit\" value=\"\(WebHTML.escaped(version.commit))\">"
                body += "<input type=\"hidden\" name=\"etag\" value=\"\(WebHTML.escaped(etag))\">"
                let label = "Restore the version of \(Self.shown(version.date))"
                body += "<button type=\"submit\" aria-label=\"\(WebHTML.escaped(label))\">Restore this version</button></form>"
            }
            body += "</li>\n"
        }
        body += "</ol>"
        return Self.page(200, "History of \(name)", signed: signed, body)
    }

    /// `POST …/people/ID/history`: gives the person the values their file had after the commit
    /// `commit` of their history, as a new change; then shows the person.
    func restoreVersion(_ target: CardDAVService.Target, id: String, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let (_, person) = Self.person(id, in: target), let key = person.key else { return Self.notFound(signed) }
        let path = StoreRepository.path(ofPersonWithKey: key)
        guard let versions = try? readHistory({ try $0.versions(ofFile: path, inStoreAt: target.book.layout.root) }),
            let version = versions.first(where: { $0.commit == body["commit"] }), let data = version.after
        else { return Self.notFound(signed) }
        let client = CardDAVWriter.Client(user: session.user)
        do {
            let paths = StoreRepository.companionPaths(ofPersonVersion: data, path: version.path)
            let files = try readHistory { try $0.files(atPaths: paths, commit: version.commit, beforeCommit: false, inStoreAt: target.book.layout.root) }
            try target.book.writer.restore(
                personWithKey: key, ifMatch: body["etag"], toVersion: data, path: version.path, files: files, client: client)
            return Self.redirect(to: Self.bookPath(target.book.name) + "people/\(person.recordID.rawValue)")
        } catch is CardDAVWriter.EditConflict {
            return Self.conflict(historyPage(target, id: id, signed: signed), saying: "Someone changed this person since the page was shown; look again before restoring.")
        } catch {
            return Self.page(500, "Not restored", signed: signed, "<h1>Not restored</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }

    /// Runs `read` with the server's history.
    ///
    /// - Throws: ``StoreHistoryUnavailable`` when the server has none; what `read` throws.
    func readHistory<Result>(_ read: (any StoreHistory) throws -> Result) throws -> Result {
        guard let history else { throw StoreHistoryUnavailable(reason: "this server keeps no history") }
        return try read(history)
    }

    /// What a page says when the history cannot be read.
    static func noHistory(_ error: any Error) -> String {
        let reason = (error as? StoreHistoryUnavailable)?.reason ?? "it cannot be read"
        return "<p class=\"muted\">There is no history to show: \(WebHTML.escaped(reason)).</p>\n"
    }

    /// One version: when, who (``StoreHistoryVersion/who``) and with what, the commit's headline, and the changes in words.
    static func versionHTML(_ version: StoreHistoryVersion, format: CompositeNameFormat) -> String {
        var html = "<p class=\"when\"><time datetime=\"\(WebHTML.escaped(version.date.formatted(.iso8601)))\">"
        html += WebHTML.escaped(shown(version.date)) + "</time> · \(WebHTML.escaped(version.who)) · "
        html += WebHTML.escaped(version.source) + "</p>\n"
        html += "<p class=\"headline muted\">\(WebHTML.escaped(version.headline))</p>\n<ul class=\"changes\">"
        let words = PersonChangeWords.lines(from: version.before, to: version.after, path: version.path, format: format)
        for line in words { html += "<li>\(WebHTML.escaped(line))</li>" }
        if words.isEmpty { html += "<li class=\"muted\">no change to the values</li>" }
        return html + "</ul>\n"
    }

    /// A date as `2026-11-29 04:40 UTC`.
    static func shown(_ date: Date) -> String {
        let text = date.formatted(.iso8601)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
