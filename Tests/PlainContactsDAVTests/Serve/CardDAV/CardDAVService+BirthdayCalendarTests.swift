import Foundation
import PlainContactsSystem
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct CardDAVServiceBirthdayCalendarTests {
    private var calendarPath: String { CardDAVURLSpace(user: nil).birthdayCalendarHref }

    /// A served store with Katie, born 1986-04-12.
    private func makeServer() throws -> (CardDAVTestStore, RecordID) {
        let server = try CardDAVTestStore()
        let id = try server.addPerson("Katie", "Bell", uid: "katie")
        try server.editPerson(id) { $0.birthday = try? ContactDate(parsing: "1986-04-12") }
        return (server, id)
    }

    @Test func getGivesTheStoresBirthdayCalendarWithAStrongETag() throws {
        let (server, _) = try makeServer()
        let response = server.send("GET", calendarPath)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/calendar; charset=utf-8")
        let expected = Data(try server.store.openBook().birthdayCalendar().utf8)
        #expect(response.body == expected)
        #expect(response.headers["ETag"] == "\"" + SHA256.hexDigest(expected) + "\"")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains("UID:katie-birthday\r\n") && text.contains("SUMMARY:Katie Bell's birthday\r\n"))
    }

    @Test func headAndConditionalGetsAnswerAsForACard() throws {
        let (server, id) = try makeServer()
        let get = server.send("GET", calendarPath)
        let etag = try #require(get.headers["ETag"])
        let head = server.send("HEAD", calendarPath)
        #expect(head.status == 200)
        #expect(head.headers["ETag"] == etag)
        #expect(head.headers["Content-Type"] == get.headers["Content-Type"])
        let unchanged = server.send("GET", calendarPath, headers: [("If-None-Match", etag)])
        #expect(unchanged.status == 304)
        #expect(unchanged.headers["ETag"] == etag)
        #expect(unchanged.body.isEmpty)
        #expect(server.send("GET", calendarPath, headers: [("If-None-Match", "\"other\"")]).status == 200)

        try server.editPerson(id) { $0.birthday = try? ContactDate(parsing: "--04-13") }
        let changed = server.send("GET", calendarPath, headers: [("If-None-Match", etag)])
        #expect(changed.status == 200)
        #expect(changed.headers["ETag"] != etag)
        #expect(String(decoding: changed.body, as: UTF8.self).contains("DTSTART;VALUE=DATE:16040413\r\n"))
    }

    @Test(arguments: ["PUT", "DELETE", "PROPFIND", "PROPPATCH", "REPORT", "POST"])
    func otherMethodsAre405(method: String) throws {
        let (server, _) = try makeServer()
        let before = try server.snapshot()
        let response = server.send(method, calendarPath, body: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "OPTIONS, GET, HEAD")
        #expect(try server.snapshot() == before)
        #expect(server.send("OPTIONS", calendarPath).headers["Allow"] == "OPTIONS, GET, HEAD")
    }

    @Test func theCalendarIsNoCardOfTheAddressBook() throws {
        let (server, _) = try makeServer()
        #expect(try server.etags().keys.allSatisfy { !$0.hasSuffix(".ics") })
        let sync = String(decoding: server.syncCollection("").body, as: UTF8.self)
        #expect(sync.contains("katie.vcf") && !sync.contains("birthdays.ics"))
        #expect(server.send("GET", server.cardPath("birthdays.ics")).status == 404)
    }

    @Test func eachUserHasTheCalendarUnderTheirOwnPrincipal() throws {
        let server = try CardDAVTestStore(user: "kim")
        try server.addPerson("Katie", "Bell")
        #expect(server.send("GET", "/kim/birthdays.ics").status == 200)
        #expect(server.send("GET", "/ann/birthdays.ics").status == 404)
    }
}
