#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainContacts
import PlainContactsSystem

/// The birthday calendar, `/<user>/birthdays.ics`: the store's birthdays and anniversaries as
/// ``AddressBook/birthdayCalendar(people:name:)`` writes them, for calendar apps to subscribe
/// to with the same account as the address book.
extension CardDAVService {
    /// The `Content-Type` of the calendar.
    static let calendarContentType = "text/calendar; charset=utf-8"

    /// Answers a request for the birthday calendar: `GET` and `HEAD` with the calendar of
    /// everyone in the store and a strong ETag (the SHA-256 digest of its bytes), 304 when
    /// `If-None-Match` names it; `OPTIONS` with the methods; anything else 405.
    ///
    /// The calendar is made from the served book's ``AddressBook``, which the writer keeps up to
    /// date (see ``CardDAVWriter/withBook(_:)``).
    ///
    /// - Throws: a 405 failure for another method; the errors of opening the store.
    func birthdayCalendar(_ request: HTTPServerRequest, book served: CardDAVServedBook) throws -> HTTPServerResponse {
        switch request.method {
        case "OPTIONS":
            return HTTPServerResponse(status: 200, headers: ["Allow": Self.birthdayCalendarMethods])
        case "GET", "HEAD":
            break
        default:
            throw CardDAVFailure.notOnBirthdayCalendar
        }
        let body = Data(try served.writer.withBook { book in try book.birthdayCalendar() }.utf8)
        let etag = "\"" + SHA256.hexDigest(body) + "\""
        if let ifNoneMatch = request.header("If-None-Match") {
            let tags = ifNoneMatch.split(separator: ",").map { HTTPSyntax.trimmed($0) }
            if tags.contains("*") || tags.contains(etag) || tags.contains("W/" + etag) {
                var response = HTTPServerResponse(status: 304)
                response.headers.append("ETag", etag)
                return response
            }
        }
        var response = HTTPServerResponse(status: 200, headers: ["Content-Type": Self.calendarContentType], body: body)
        response.headers.append("ETag", etag)
        return response
    }
}

extension CardDAVFailure {
    /// A method the birthday calendar does not answer: 405, with the methods it does.
    static var notOnBirthdayCalendar: CardDAVFailure {
        var failure = CardDAVFailure(status: 405)
        failure.headers = ["Allow": CardDAVService.birthdayCalendarMethods]
        return failure
    }
}
