import Foundation

/// The `serverinfo.xml` that tells CalDAVTester where a server keeps what: host and port,
/// the features it claims, and the substitutions the scripts' paths are written in.
///
/// Both servers get the same features, so that each runs the same tests, and the same URL
/// layout, which is theirs: the principal `/<user>/` is also the address-book home, and the
/// address book is `/<user>/contacts/`, where CalendarServer has `/principals/users/<user>/`
/// and `/addressbooks/__uids__/<guid>/addressbook/`. The upstream template's substitutions
/// come first when the copy holds it (its later keys override earlier ones, as CalDAVTester
/// reads them into a dictionary); the ones the layout needs follow.
///
/// ```swift
/// let text = CalDAVTesterServerInfo(port: 5232, users: 2, template: upstream).xml
/// ```
struct CalDAVTesterServerInfo {
    /// The features claimed: CardDAV, and the extensions both servers implement. Everything
    /// CalendarServer-specific (sharing, directory gateway, ACL reports, listing a collection
    /// with GET) is left out, so those tests are ignored rather than failed.
    static let features = ["carddav", "current-user-principal", "own-root", "sync-report", "well-known"]

    /// The server's port on 127.0.0.1.
    var port: Int
    /// Users `user01`… with passwords `user01`…
    var users: Int
    /// The upstream `scripts/server/serverinfo.xml`, when the copy has it.
    var template: String?

    /// The file's text.
    var xml: String {
        var lines = [
            #"<?xml version="1.0" encoding="utf-8"?>"#,
            "<serverinfo>",
            "\t<host>127.0.0.1</host>",
            "\t<nonsslport>\(port)</nonsslport>",
            "\t<authtype>basic</authtype>",
            "\t<features>",
        ]
        lines += Self.features.map { "\t\t<feature>\($0)</feature>" }
        lines += ["\t</features>", "\t<substitutions>"]
        if let inherited = template.flatMap(Self.substitutions(of:)) { lines.append(inherited) }
        lines += Self.layout(users: users)
        lines += [
            "\t</substitutions>",
            // Properties a server adds to every card it stores; the comparisons skip them.
            "\t<addressdatafilter>PRODID</addressdatafilter>",
            "\t<addressdatafilter>REV</addressdatafilter>",
            "</serverinfo>",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// What lies between the template's `<substitutions>` tags.
    static func substitutions(of template: String) -> String? {
        guard let start = template.range(of: "<substitutions>"),
            let end = template.range(of: "</substitutions>", range: start.upperBound..<template.endIndex)
        else { return nil }
        return String(template[start.upperBound..<end.lowerBound])
    }

    /// The substitutions of the servers' layout, and those the scripts need when there is no
    /// template. Every key a value names must be defined: CalDAVTester expands values until no
    /// `$` is left, and loops forever on an unknown one.
    static func layout(users: Int) -> [String] {
        let plain: [(String, String)] = [
            ("$root:", "/"),
            ("$principalcollection:", "$root:"),
            ("$principals_users:", "$root:"),
            ("$principals_uids:", "$root:"),
            ("$addressbooks:", "$root:"),
            ("$addressbook:", "contacts"),
            ("$directory:", "$root:directory/"),
            // No administrator: the scripts' clean-ups as `admin` are refused and do nothing.
            ("$useradmin:", "admin"),
            ("$pswdadmin:", "admin"),
            ("$CARDDAV:", "urn:ietf:params:xml:ns:carddav"),
            ("$CS:", "http://calendarserver.org/ns/"),
            ("$verify-property-prefix:", "/{DAV:}multistatus/{DAV:}response/{DAV:}propstat/{DAV:}prop"),
            ("$multistatus-response-prefix:", "/{DAV:}multistatus/{DAV:}response"),
            ("$multistatus-href-prefix:", "/{DAV:}multistatus/{DAV:}response/{DAV:}href"),
            ("$calendar_sync_extra_items:", "[-]"),
        ]
        let perUser: [(String, String)] = [
            ("$userid%d:", "user%02d"),
            ("$pswd%d:", "user%02d"),
            ("$username%d:", "User %02d"),
            ("$userguid%d:", "10000000-0000-0000-0000-000000000%03d"),
            ("$principal%d:", "$principals_users:$userid%d:/"),
            ("$principaluri%d:", "$principals_users:$userid%d:/"),
            ("$principal%dnoslash:", "$principals_users:$userid%d:"),
            ("$addressbookhome%d:", "$root:$userid%d:"),
            ("$addressbookpath%d:", "$addressbookhome%d:/$addressbook:"),
            ("$notificationpath%d:", "$addressbookhome%d:/notification"),
            ("$email%d:", "$userid%d:@example.com"),
        ]
        var lines = plain.map { entry($0.0, $0.1, indent: "\t\t") }
        lines.append("\t\t<repeat count=\"\(users)\">")
        lines += perUser.map { entry($0.0, $0.1, indent: "\t\t\t") }
        lines.append("\t\t</repeat>")
        return lines
    }

    private static func entry(_ key: String, _ value: String, indent: String) -> String {
        indent + "<substitution><key>\(escaped(key))</key><value>\(escaped(value))</value></substitution>"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
