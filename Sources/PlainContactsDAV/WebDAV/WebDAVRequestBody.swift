import Foundation
import PlainContacts

/// Writes the XML bodies of WebDAV requests, with every value XML-escaped.
///
/// ```swift
/// let body = WebDAVRequestBody.propfind([.dav("getetag"), .calendarServer("getctag")])
/// ```
enum WebDAVRequestBody {
    /// The prefixes written for the namespaces a CardDAV client asks about.
    static let prefixes: [(prefix: String, namespace: String)] = [
        ("d", "DAV:"), ("c", "urn:ietf:params:xml:ns:carddav"), ("cs", "http://calendarserver.org/ns/"),
    ]

    /// The `Content-Type` of every body written here.
    static let contentType = "application/xml; charset=utf-8"

    /// A `PROPFIND` body asking for these properties.
    static func propfind(_ properties: [WebDAVElement.Name]) -> Data {
        document(root: "d:propfind", inner: prop(properties))
    }

    /// A `<d:prop>` element listing properties by name.
    static func prop(_ properties: [WebDAVElement.Name]) -> String {
        "<d:prop>" + properties.map { "<\(qualified($0))/>" }.joined() + "</d:prop>"
    }

    /// A whole document: the XML declaration and a root element declaring every prefix.
    static func document(root: String, inner: String) -> Data {
        let declarations = prefixes.map { " xmlns:\($0.prefix)=\"\($0.namespace)\"" }.joined()
        return Data("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<\(root)\(declarations)>\(inner)</\(root)>\n".utf8)
    }

    /// A name with the prefix of its namespace.
    static func qualified(_ name: WebDAVElement.Name) -> String {
        guard let prefix = prefixes.first(where: { $0.namespace == name.namespace })?.prefix else { return name.local }
        return "\(prefix):\(name.local)"
    }

    /// Text escaped for an XML element's content.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
