/// An XML element of a WebDAV body, namespace-qualified, with its text and child elements: the
/// form property values take (`getetag`'s text, `resourcetype`'s children).
///
/// ```swift
/// // <d:resourcetype><d:collection/><card:addressbook/></d:resourcetype>
/// element.children.map(\.name)   // [DAV: collection, urn:ietf:params:xml:ns:carddav addressbook]
/// ```
struct WebDAVElement: Hashable, Sendable {
    /// A namespace-qualified element name.
    struct Name: Hashable, Sendable, CustomStringConvertible {
        /// The namespace URI, such as `DAV:`.
        var namespace: String
        /// The local name, such as `getetag`.
        var local: String

        /// A name in the `DAV:` namespace.
        static func dav(_ local: String) -> Name { Name(namespace: "DAV:", local: local) }
        /// A name in the CardDAV namespace (RFC 6352).
        static func cardDAV(_ local: String) -> Name { Name(namespace: "urn:ietf:params:xml:ns:carddav", local: local) }
        /// A name in the CalendarServer namespace (`getctag`).
        static func calendarServer(_ local: String) -> Name { Name(namespace: "http://calendarserver.org/ns/", local: local) }

        var description: String { "\(namespace) \(local)" }
    }

    var name: Name
    /// The element's own text, as written (entities and CDATA decoded), outside its children.
    var text: String
    var children: [WebDAVElement]
    /// The element's attributes by local name (`name` of `<card:prop-filter name="FN">`).
    var attributes: [String: String] = [:]

    /// The first child with a name.
    func child(_ name: Name) -> WebDAVElement? {
        children.first { $0.name == name }
    }
}
