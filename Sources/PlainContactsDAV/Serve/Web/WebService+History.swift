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
    /// `GET …/people/ID/history?skip=N`: the person's versions, newest first, a page of
    /// ``StoreHistoryVersion/limit`` after the `skipping` newest, with links to the older and
    /// newer pages; for a book the user may change, a button that restores each earlier version.
    func historyPage(_ target: CardDAVService.Target, id: String, skipping: Int = 0, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (book, person) = Self.person(id, in: target), let key = person.key else { return Self.notFound(signed) }
        let name = person.compositeName ?? "(no name)"
        let skipping = max(0, skipping)
        var body = "<p><a href=\"../\(person.recordID.rawValue)\">← \(WebHTML.escaped(name))</a></p>\n"
        body += "<h1>History of \(WebHTML.escaped(name))</h1>\n"
        let path = StoreRepository.path(ofPersonWithKey: key)
        var versions: [StoreHistoryVersion]
        do {
            versions = try historyPage(of: path, skipping: skipping, in: target)
        } catch {
            return Self.page(200, "History of \(name)", signed: signed, body + Self.noHistory(error))
        }
        let hasOlder = versions.count > StoreHistoryVersion.limit
        versions = Array(versions.prefix(StoreHistoryVersion.limit))
        if versions.isEmpty { body += "<p class=\"muted\">No commit holds this person\(skipping > 0 ? " this far back" : " yet").</p>\n" }
        let current = FileManager.default.contents(atPath: target.book.layout.root.appending(path: path).path(percentEncoded: false))
        let etag = target.access == .readWrite ? etag(of: person, in: target) : nil
        body += "<ol class=\"history\" start=\"\(skipping + 1)\">\n"
        for version in versions {
            body += "<li>" + Self.versionHTML(version, format: book.compositeNameFormat)
            if let etag, let after = version.after, after != current {
                body += "<form method=\"post\" action=\"history\">" + WebHTML.tokenField(signed.formToken)
                body += "<input type=\"hidden\" name=\"commit\" value=\"\(WebHTML.escaped(version.commit))\">"
                body += "<input type=\"hidden\" name=\"skip\" value=\"\(skipping)\">"
                body += "<input type=\"hidden\" name=\"etag\" value=\"\(WebHTML.escaped(etag))\">"
                let label = "Restore the version of \(Self.shown(version.date))"
                body += "<button type=\"submit\" aria-label=\"\(WebHTML.escaped(label))\">Restore this version</button></form>"
            }
            body += "</li>\n"
        }
        body += "</ol>\n"
        var links: [String] = []
        if skipping > 0 {
            let newer = max(0, skipping - StoreHistoryVersion.limit)
            links.append("<a href=\"history\(newer > 0 ? "?skip=\(newer)" : "")\" rel=\"prev\">Newer changes</a>")
        }
        if hasOlder { links.append("<a href=\"history?skip=\(skipping + StoreHistoryVersion.limit)\" rel=\"next\">Older changes</a>") }
        if !links.isEmpty { body += "<nav class=\"pages\" aria-label=\"Pages of the history\">" + links.joined() + "</nav>\n" }
        return Self.page(200, "History of \(name)", signed: signed, body)
    }

    /// `POST …/people/ID/history`: gives the person the values and photo their file had after
    /// the commit `commit` of the page of their history after `skip` versions, as a new change;
    /// then shows the person.
    func restoreVersion(_ target: CardDAVService.Target, id: String, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let (_, person) = Self.person(id, in: target), let key = person.key else { return Self.notFound(signed) }
        let path = StoreRepository.path(ofPersonWithKey: key)
        let skipping = max(0, Int(body["skip"] ?? "") ?? 0)
        guard let versions = try? historyPage(of: path, skipping: skipping, in: target),
            let version = versions.first(where: { $0.commit == body["commit"] }), let data = version.after
        else { return Self.notFound(signed) }
        let client = CardDAVWriter.Client(user: session.user)
        do {
            let paths = StoreRepository.companionPaths(ofPersonVersion: data, path: version.path)
            let root = target.book.layout.root
            let files = try readHistory { try $0.files(atPaths: paths, commit: version.commit, beforeCommit: false, inStoreAt: root) }
            try target.book.writer.restore(
                personWithKey: key, ifMatch: body["etag"], toVersion: data, path: version.path, files: files, client: client)
            return Self.redirect(to: Self.bookPath(target.book.name) + "people/\(person.recordID.rawValue)")
        } catch is CardDAVWriter.EditConflict {
            let page = historyPage(target, id: id, skipping: skipping, signed: signed)
            return Self.conflict(page, saying: "Someone changed this person since the page was shown; look again before restoring.")
        } catch {
            return Self.page(500, "Not restored", signed: signed, "<h1>Not restored</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }

    /// The versions of the file at `path` after the `skipping` newest: a page, and one more
    /// when there are older ones.
    ///
    /// - Throws: ``StoreHistoryUnavailable``.
    private func historyPage(of path: String, skipping: Int, in target: CardDAVService.Target) throws -> [StoreHistoryVersion] {
        let root = target.book.layout.root
        return try readHistory { try $0.versions(ofFile: path, skipping: skipping, limit: StoreHistoryVersion.limit + 1, inStoreAt: root) }
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

    /// One version: when, who (``StoreHistoryVersion/who``) and with what, the commit's headline, and the changes in words
    /// (for a merge, `merged: ` and the changes against its first parent).
    static func versionHTML(_ version: StoreHistoryVersion, format: CompositeNameFormat) -> String {
        var html = "<p class=\"when\"><time datetime=\"\(WebHTML.escaped(version.date.formatted(.iso8601)))\">"
        html += WebHTML.escaped(shown(version.date)) + "</time> · \(WebHTML.escaped(version.who)) · "
        html += WebHTML.escaped(version.source) + "</p>\n"
        html += "<p class=\"headline muted\">\(WebHTML.escaped(version.headline))</p>\n<ul class=\"changes\">"
        // A merge says what it changed against its first parent: what the other side brought
        // and what the merge driver settled.
        let merged = version.isMerge ? "merged: " : ""
        let words = PersonChangeWords.lines(from: version.before, to: version.after, path: version.path, format: format)
        for line in words { html += "<li>\(WebHTML.escaped(merged + line))</li>" }
        if words.isEmpty { html += "<li class=\"muted\">\(merged)no change to the values</li>" }
        return html + "</ul>\n"
    }

    /// A date as `2026-11-29 04:40 UTC`.
    static func shown(_ date: Date) -> String {
        let text = date.formatted(.iso8601)
        return String(text.prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}
