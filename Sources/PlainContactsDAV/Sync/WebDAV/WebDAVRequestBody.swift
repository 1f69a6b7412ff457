import Foundation

/// The XML bodies of the client's WebDAV requests, written with the one XML writer
/// (``WebDAVXMLWriter``), so that requests and answers share its prefixes and escaping.
///
/// ```swift
/// let body = WebDAVRequestBody.propfind([.dav("getetag"), .calendarServer("getctag")])
/// ```
enum WebDAVRequestBody {
    /// The `Content-Type` of every body written here.
    static let contentType = WebDAVXMLWriter.contentType

    /// A `PROPFIND` body asking for these properties.
    static func propfind(_ properties: [WebDAVElement.Name]) -> Data {
        document(root: "d:propfind") { xml in prop(properties, in: &xml) }
    }

    /// A report or other request of root element `root` (with its prefix: `d:`, `card:`), its
    /// content written by `content`.
    static func document(root: String, _ content: (inout WebDAVXMLWriter) -> Void) -> Data {
        var xml = WebDAVXMLWriter(root: root, capacity: 512)
        content(&xml)
        return xml.finish()
    }

    /// A `<d:prop>` element listing properties by name.
    static func prop(_ properties: [WebDAVElement.Name], in xml: inout WebDAVXMLWriter) {
        xml.open("d:prop")
        for property in properties { xml.empty(property) }
        xml.close("d:prop")
    }
}
