#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts

/// What the web pages do with a whole book or a person's file beside the views: the book's
/// downloads, a person's photo, a person's removal.
extension WebService {
    /// `GET …/export.vcf` and `GET …/export.csv`: every person (and, in vCard, every group) of
    /// the book, as `contacts export` writes them.
    func bookDownload(_ target: CardDAVService.Target, format: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        do {
            let book = try AddressBook(url: target.book.layout.root)
            let people = book.allPeople(sortedBy: nil)
            let (text, type) = format == "csv"
                ? (try book.exportCSV(people, layout: .google), "text/csv; charset=utf-8")
                : (try book.exportVCards(people, groups: book.allGroups()), "text/vcard; charset=utf-8")
            var response = HTTPServerResponse(status: 200, headers: ["Content-Type": type], body: Data(text.utf8))
            response.headers.append("Content-Disposition", "attachment; filename=\"\(target.book.name.rawValue).\(format)\"")
            return response
        } catch {
            return Self.page(500, "Cannot export", signed: signed, "<h1>Cannot export the book</h1>\n<p>The server log says why.</p>")
        }
    }

    /// `GET …/people/ID/photo`: the person's photo, when it is a JPEG, PNG, GIF or WebP image,
    /// for the person's page and the list's thumbnails. Anything else (an SVG, which could carry
    /// script) is never served as an image. The photo's ETag (a hash of its bytes) lets the
    /// browser keep it and ask again cheaply: `If-None-Match` with it is answered 304.
    func photo(_ target: CardDAVService.Target, id: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard let (_, person) = Self.person(id, in: target), let data = try? person.imageData(), let type = Self.imageType(of: data) else {
            return Self.notFound(signed)
        }
        var response = HTTPServerResponse(status: 200, headers: ["Content-Type": type], body: data)
        response.headers.append("Cache-Control", "private, no-cache")
        response.headers.append("ETag", Self.etag(of: data))
        return response
    }

    /// A strong ETag of `data`: its 64-bit FNV-1a hash.
    static func etag(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
    }

    /// The media type of a JPEG, PNG, GIF or WebP image by its first bytes; `nil` for anything else.
    static func imageType(of data: Data) -> String? {
        let bytes = Array(data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "image/gif" }
        if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "image/webp" }
        return nil
    }

    /// `GET …/people/ID/remove`: asks whether to remove the person.
    func removePage(_ target: CardDAVService.Target, id: String, signed: WebHTML.Signed) -> HTTPServerResponse {
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let (_, person) = Self.person(id, in: target) else { return Self.notFound(signed) }
        let name = WebHTML.escaped(person.compositeName ?? "(no name)")
        var body = "<h1>Remove \(name)?</h1>\n<p>The person is removed from the book; the history keeps every earlier version.</p>\n"
        body += "<form method=\"post\" action=\"remove\">" + WebHTML.tokenField(signed.formToken)
        if let etag = etag(of: person, in: target) { body += "<input type=\"hidden\" name=\"etag\" value=\"\(WebHTML.escaped(etag))\">" }
        body += "<p class=\"actions\"><button type=\"submit\">Remove</button> <a href=\"../\(person.recordID.rawValue)\">Cancel</a></p></form>"
        return Self.page(200, "Remove \(person.compositeName ?? "(no name)")", signed: signed, body)
    }

    /// `POST …/people/ID/remove`: removes the person, unless someone changed them since the
    /// question was asked.
    func remove(_ target: CardDAVService.Target, id: String, body: WebForm, session: WebSession) -> HTTPServerResponse {
        let signed = WebHTML.Signed(user: session.user, formToken: session.formToken)
        guard target.access == .readWrite else { return Self.readOnly(signed) }
        guard let (_, person) = Self.person(id, in: target), let key = person.key else { return Self.notFound(signed) }
        do {
            try target.book.writer.remove(personWithKey: key, ifMatch: body["etag"], client: CardDAVWriter.Client(user: session.user))
            return Self.redirect(to: Self.bookPath(target.book.name))
        } catch is CardDAVWriter.EditConflict {
            return Self.conflict(removePage(target, id: id, signed: signed), saying: "Someone changed this person since you asked; look again before removing.")
        } catch {
            return Self.page(500, "Not removed", signed: signed, "<h1>Not removed</h1>\n<p class=\"error\">\(WebHTML.escaped("\(error)"))</p>")
        }
    }
}
