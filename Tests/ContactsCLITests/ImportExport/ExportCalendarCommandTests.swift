import DAVTestSupport
import Foundation
import Testing

/// Reads an iCalendar file with the `icalendar` package and prints its events as JSON, each
/// with its recurrences from 2026 to 2028 as `dateutil` expands its `RRULE`.
private let readCalendar = #"""
    import json, sys
    from datetime import datetime
    from icalendar import Calendar
    from dateutil.rrule import rrulestr

    calendar = Calendar.from_ical(open(sys.argv[1], "rb").read())
    events = []
    for event in calendar.walk("VEVENT"):
        start = event.decoded("DTSTART")
        rule = event.get("RRULE").to_ical().decode()
        first = datetime(start.year, start.month, start.day)
        dates = rrulestr(rule, dtstart=first).between(datetime(2026, 1, 1), datetime(2028, 12, 31), inc=True)
        events.append({
            "uid": str(event.get("UID")),
            "summary": str(event.get("SUMMARY")),
            "description": str(event.get("DESCRIPTION", "")),
            "start": start.isoformat(),
            "end": event.decoded("DTEND").isoformat(),
            "rrule": rule,
            "categories": [str(c) for c in event.get("CATEGORIES").cats],
            "transp": str(event.get("TRANSP")),
            "occurrences": [d.date().isoformat() for d in dates],
        })
    print(json.dumps({
        "name": str(calendar.get("X-WR-CALNAME")),
        "version": str(calendar.get("VERSION")),
        "events": events,
    }))
    """#

@Suite struct ExportCalendarCommandTests {
    /// The UID `export` writes on a person's vCard.
    private func uid(of id: String, in sandbox: CLISandbox) throws -> String {
        let card = try sandbox.succeed(["export", id]).stdout
        let line = try #require(card.split(separator: "\r\n").first { $0.hasPrefix("UID:") })
        return String(line.dropFirst(4))
    }

    @Test func theCalendarReadsBackWithARealICalendarParser() throws {
        let python = try DAVServerInstallation.python(importing: "icalendar")
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let long = "Zoë Ångström-Łukasiewicz 日本語の名前はとても長いです"
        let katie = try sandbox.add(["--first", "Katie", "--last", "Bell, Jr.; \"K\"", "--birthday", "1986-12-03"])
        let lea = try sandbox.add(["--first", long, "--birthday", "--02-29"])
        try sandbox.succeed(["set", katie, #"dates=[{"label": "anniversary", "value": "2016-01-10"}]"#])
        let dates = try #require(try sandbox.json(katie)["dates"] as? [[String: Any]])
        let entry = try #require(dates.first?["id"] as? Int)
        try sandbox.add(["--first", "No", "--last", "Dates"])
        let file = sandbox.root.appending(path: "birthdays.ics").path
        try sandbox.succeed(["export", "--format", "ics", "--output", file])
        let raw = try String(contentsOfFile: file, encoding: .utf8)
        #expect(raw.split(separator: "\r\n", omittingEmptySubsequences: false).allSatisfy { $0.utf8.count <= 75 })
        #expect(!raw.replacingOccurrences(of: "\r\n", with: "").contains("\n"))

        let output = sandbox.root.appending(path: "parsed.json").path
        let status = try ChildProcess.run(
            [python.path, "-c", readCalendar, file], environment: ProcessInfo.processInfo.environment, output: output,
            errors: sandbox.root.appending(path: "parsed.err").path)
        #expect(status == 0)
        let parsed = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: output))) as? [String: Any])
        #expect(parsed["name"] as? String == "Birthdays")
        #expect(parsed["version"] as? String == "2.0")
        let events = try #require(parsed["events"] as? [[String: Any]])
        #expect(events.count == 3)
        let katieUID = try uid(of: katie, in: sandbox)
        let leaUID = try uid(of: lea, in: sandbox)
        let byUID = Dictionary(uniqueKeysWithValues: events.compactMap { event in (event["uid"] as? String).map { ($0, event) } })
        #expect(Set(byUID.keys) == ["\(katieUID)-birthday", "\(katieUID)-anniversary-\(entry)", "\(leaUID)-birthday"])

        let birthday = try #require(byUID["\(katieUID)-birthday"])
        #expect(birthday["summary"] as? String == "Katie Bell, Jr.; \"K\"'s birthday")
        #expect(birthday["start"] as? String == "1986-12-03")
        #expect(birthday["end"] as? String == "1986-12-04")
        #expect(birthday["rrule"] as? String == "FREQ=YEARLY")
        #expect(birthday["categories"] as? [String] == ["Birthday"])
        #expect(birthday["transp"] as? String == "TRANSPARENT")
        #expect(birthday["occurrences"] as? [String] == ["2026-12-03", "2027-12-03", "2028-12-03"])

        let anniversary = try #require(byUID["\(katieUID)-anniversary-\(entry)"])
        #expect(anniversary["summary"] as? String == "Katie Bell, Jr.; \"K\"'s anniversary")
        #expect(anniversary["categories"] as? [String] == ["Anniversary"])
        #expect(anniversary["occurrences"] as? [String] == ["2026-01-10", "2027-01-10", "2028-01-10"])

        let leapDay = try #require(byUID["\(leaUID)-birthday"])
        #expect(leapDay["summary"] as? String == "\(long)'s birthday")
        #expect(leapDay["description"] as? String == "29 February: on 28 February in common years")
        #expect(leapDay["start"] as? String == "1604-02-29")
        #expect(leapDay["end"] as? String == "1604-03-01")
        let leapRule = try #require(leapDay["rrule"] as? String)
        #expect(Set(leapRule.split(separator: ";")) == ["FREQ=YEARLY", "BYMONTH=2", "BYMONTHDAY=-1"])
        #expect(leapDay["occurrences"] as? [String] == ["2026-02-28", "2027-02-28", "2028-02-29"])
    }

    @Test func theSameStoreGivesTheSameBytesAndTheOptionsAreChecked() throws {
        let sandbox = try CLISandbox()
        try sandbox.initStore()
        let katie = try sandbox.add(["--first", "Katie", "--last", "Bell", "--birthday", "--04-12"])
        let first = try sandbox.succeed(["export", "--format", "ics"]).stdout
        #expect(first == (try sandbox.succeed(["export", "--format", "ics"]).stdout))
        #expect(first.hasPrefix("BEGIN:VCALENDAR\r\n"))
        #expect(first.contains("DTSTART;VALUE=DATE:16040412\r\n"))
        #expect(try sandbox.succeed(["export", "--format", "ics", katie]).stdout == first)
        #expect(try sandbox.succeed(["export", "--format", "vcard"]).stdout.hasPrefix("BEGIN:VCARD"))
        #expect(try sandbox.run(["export", "--format", "ics", "--vcard-version", "4.0"]).status == 64)
        #expect(try sandbox.run(["export", "--format", "pdf"]).status == 64)
    }
}
