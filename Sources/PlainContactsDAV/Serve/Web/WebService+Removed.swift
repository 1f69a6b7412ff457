#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// The people removed from a book, found in its history (``StoreHistory/removedFiles(inFolder:inStoreAt:)``),
/// each with their last version, and the undoing of a removal as a new change
/// (``CardDAVWriter/restoreRemoved(fromVersion:path:client:)``).
extension WebService {
    /// `GET …/removed/`: who was removed, when, by whom and with what, newest first.
    func removedPage(_ target: CardDAVService.Target, signed: WebHTML.Signed) -> HTTPServerResponse {
        var body = "<p><a href=\"../\">← \(WebHTML.escaped(target.book.displayName))</a></p>\n<h1>Removed people</h1>\n"
        let removed: [StoreHistoryVersion]
        do {
            removed = try readHistory { try $0.removedFiles(inFolder: StoreRepository.peopleFolder, inStoreAt: target.book.layout.root) }
        } catch {
            return Self.page(200, "Removed people", signed: signed, body + Self.noHistory(error))
        }
        if removed.isEmpty { body += "<p class=\"muted\">Nobody has been removed from this book.</p>\n" }
        body += "<ul class=\"people\">\n"
        for version in removed {
            guard let key = Self.key(of: version.path) else { continue }
            let name = version.before.flatMap { try? AddressBook.person(inVersion: $0, path: version.path) }?.compositeName
            body += "<li><a href=\"\(WebHTML.escaped(WebForm.encoded(key)))\">\(WebHTML.escaped(name ?? "(no name)"))"
            body += "<span class=\"detail\">removed \(WebHTML.escaped(Self.shown(version.date))) by \(WebHTML.escaped(version.who))"
            body += " · \(WebHTML.escaped(version.source))</span></a></li>\n"
        }
        body += "</ul>"
        return Self.page(200, "Removed people", signed: signed, body)
    }

    /// `GET …/removed/KEY`: the last version of a removed person, and for a book the user may
    /// change, the button that brings them back.
    func removedPersonPage(_ target: CardDAVService.Target, key: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (version, person) = removedPerson(key, in: target), let data = version.before else { return Self.notFound(signed) }
        let name = person.compositeName ?? "(no name)"
        var body = "<p><a href=\"./\">← Removed people</a></p>\n<h1>\(WebHTML.escaped(name))</h1>\n"
        body += "<p class=\"muted\">Removed \(WebHTML.escaped(Self.shown(version.date))) by \(WebHTML.escaped(version.who))"
        body += " · \(WebHTML.escaped(version.source)). This was the last version:</p>\n<dl class=\"person\">\n"
        let files = (try? versionFiles(of: data, version, in: target)) ?? [:]
        let groups: (kept: [Group], gone: [String]) =
            (try? AddressBook(url: target.book.layout.root))?.groups(ofPersonVersionAt: version.path, files: files) ?? ([], [])
        let photo = try? AddressBook.person(inVersion: data, path: version.path, files: files).hasImage
        for (field, value) in WebPersonFields.rows(of: person, groups: groups.kept.map { $0.name ?? "(no name)" }) {
            body += "<dt>\(WebHTML.escaped(field))</dt><dd>\(value)</dd>\n"
        }
        if photo == true { body += "<dt>photo</dt><dd>a photo, brought back with the person</dd>\n" }
        if !groups.gone.isEmpty {
            body += "<dt>groups removed since</dt><dd class=\"gone\">\(WebHTML.escaped(groups.gone.joined(separator: ", ")))</dd>\n"
        }
        body += "</dl>\n"
        if target.access == .readWrite {
            body += "<form method=\"post\" action=\"\(WebHTML.escaped(WebForm.encoded(key)))\">" + WebHTML.tokenField(signed.formToken)
            body += "<input type=\"hidden\" name=\"commit\" value=\"\(WebHTML.escaped(version.commit))\">"
            body += "<p>Restoring adds the person back as a new change, with their photo and their groups"
            body += groups.gone.isEmpty ? ".</p>" : " (but for the groups removed since, which do not come back).</p>"
            body += "<p><button type=\"submit\">Restore \(WebHTML.escaped(name))</button></p></form>"
        }
        return Self.page(200, name, signed: signed, body)
    }

    /// `POST …/removed/KEY`: adds the removed person back from their last version, as a new
    /// change; then shows them.
    func restoreRemoved(_ target: CardDAVService.Target, key: String, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        // A stale form (the person was restored meanwhile, or removed again) finds no match.
        guard let (version, _) = removedPerson(key, in: target), version.commit == body["commit"], let data = version.before else {
            return Self.notFound(signed)
        }
        do {
            let files = try versionFiles(of: data, version, in: target)
            let client = CardDAVWriter.Client(user: session.user)
            let restored = try target.book.writer.restoreRemoved(fromVersion: data, path: version.path, files: files, client: client)
            guard let person = try AddressBook(url: target.book.layout.root).person(forKey: restored) else { return Self.notFound(signed) }
            return Self.redirect(to: Self.bookPath(target.book.name) + "people/\(person.recordID.rawValue)")
        } catch {
            return Self.page(500, "Not restored", signed: signed, "<h1>Not restored</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }

    /// The removal of the person whose file had `key`, and their last version.
    private func removedPerson(_ key: String, in target: CardDAVService.Target) -> (StoreHistoryVersion, Person)? {
        guard let removed = try? readHistory({ try $0.removedFiles(inFolder: StoreRepository.peopleFolder, inStoreAt: target.book.layout.root) }),
            let version = removed.first(where: { Self.key(of: $0.path) == key }), let data = version.before,
            let person = try? AddressBook.person(inVersion: data, path: version.path)
        else { return nil }
        return (version, person)
    }

    /// The files of the store that go with the last version of a removed person's file
    /// (`data`, as `version` removed it: their photo, the group membership files), as they were
    /// just before the removal.
    ///
    /// - Throws: ``StoreHistoryUnavailable`` when the history cannot be read.
    private func versionFiles(of data: Data, _ version: StoreHistoryVersion, in target: CardDAVService.Target) throws -> [String: Data] {
        let paths = StoreRepository.companionPaths(ofPersonVersion: data, path: version.path)
        let root = target.book.layout.root
        return try readHistory { try $0.files(atPaths: paths, commit: version.commit, beforeCommit: true, inStoreAt: root) }
    }

    /// The key of a person file's path (`people/KEY.json`); `nil` for any other file.
    private static func key(of path: String) -> String? {
        guard let name = path.split(separator: "/").last, name.hasSuffix(".json"), let key = RecordKey(rawValue: String(name.dropLast(5))),
            StoreRepository.path(ofPersonWithKey: key) == path
        else { return nil }
        return key.rawValue
    }
}
