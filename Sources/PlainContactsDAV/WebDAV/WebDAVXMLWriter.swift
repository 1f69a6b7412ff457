#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes the XML bodies of the server's answers and the client's requests straight into
/// bytes, escaping text as it goes: a multistatus of ten thousand cards is one buffer, with no
/// string built per element.
///
/// The namespaces the server speaks have fixed prefixes declared on the root element (`d:` for
/// `DAV:`, `card:` for CardDAV, `cs:` for CalendarServer); an element of any other namespace
/// (a property a client asked for that the server does not know) declares its own.
///
/// ```swift
/// var xml = WebDAVXMLWriter(root: "d:multistatus")
/// xml.open("d:response")
/// xml.element("d:href", text: "/me/contacts/")
/// xml.close("d:response")
/// let body = xml.finish()
/// ```
struct WebDAVXMLWriter {
    /// The prefixes declared on every root element.
    static let prefixes: [(prefix: String, namespace: String)] = [
        ("d", "DAV:"), ("card", "urn:ietf:params:xml:ns:carddav"), ("cs", "http://calendarserver.org/ns/"),
    ]

    /// The `Content-Type` of every body written here.
    static let contentType = "application/xml; charset=utf-8"

    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []
    /// The root element's name, closed by ``finish()``.
    private let root: String

    /// Starts a document with its XML declaration and the root element, which declares every
    /// prefix of ``prefixes``.
    init(root: String, capacity: Int = 4096) {
        self.root = root
        bytes.reserveCapacity(capacity)
        append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<")
        append(root)
        for (prefix, namespace) in Self.prefixes {
            append(" xmlns:")
            append(prefix)
            append("=\"")
            append(namespace)
            append("\"")
        }
        append(">")
    }

    /// Closes the root element and gives the document.
    mutating func finish() -> Data {
        close(root)
        append("\n")
        return Data(bytes)
    }

    /// Appends markup as it is (never text from a request or a card).
    mutating func append(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Opens an element.
    mutating func open(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        bytes.append(UInt8(ascii: ">"))
    }

    /// Closes an element.
    mutating func close(_ name: String) {
        append("</")
        append(name)
        bytes.append(UInt8(ascii: ">"))
    }

    /// An empty element, such as `<d:collection/>`.
    mutating func empty(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        append("/>")
    }

    /// An element holding escaped text.
    mutating func element(_ name: String, text: String) {
        open(name)
        appendEscaped(text)
        close(name)
    }

    /// An element holding escaped text given as UTF-8 bytes (a card's text).
    mutating func element(_ name: String, bytes text: Data) {
        open(name)
        appendEscaped(text)
        close(name)
    }

    /// An element of the `DAV:` namespace holding an href.
    mutating func href(_ href: String) {
        element("d:href", text: href)
    }

    /// `<d:status>HTTP/1.1 404 Not Found</d:status>`.
    mutating func status(_ code: Int) {
        open("d:status")
        append("HTTP/1.1 \(code) ")
        append(HTTPStatus.reasonPhrase(for: code))
        close("d:status")
    }

    /// An empty element with a namespace-qualified name, written with the namespace's prefix
    /// or with its own declaration.
    mutating func empty(_ name: WebDAVElement.Name) {
        if let prefix = Self.prefixes.first(where: { $0.namespace == name.namespace })?.prefix {
            empty(prefix + ":" + Self.escaped(name.local))
        } else if name.namespace.isEmpty {
            empty(Self.escaped(name.local))
        } else {
            append("<x:")
            append(Self.escaped(name.local))
            append(" xmlns:x=\"")
            appendEscaped(name.namespace)
            append("\"/>")
        }
    }

    /// Appends text with `&`, `<`, `>` and `"` escaped; control characters XML cannot carry
    /// (all below U+0020 but tab, line feed and carriage return) are dropped.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0)) }
    }

    /// Appends UTF-8 bytes escaped as ``appendEscaped(_:)-(String)`` does.
    mutating func appendEscaped(_ data: Data) {
        data.withUnsafeBytes { appendEscaped($0) }
    }

    private mutating func appendEscaped(_ buffer: UnsafeRawBufferPointer) {
        var start = 0
        for index in 0..<buffer.count {
            let byte = buffer[index]
            let replacement: StaticString
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case 0x09, 0x0A: continue
            case 0x0D: replacement = "&#13;"
            case 0x00..<0x20: replacement = ""
            default: continue
            }
            if index > start { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<index])) }
            replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
            start = index + 1
        }
        if buffer.count > start { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<buffer.count])) }
    }

    /// Text escaped for XML, as a string.
    static func escaped(_ text: String) -> String {
        var writer = WebDAVXMLWriter(bare: ())
        writer.appendEscaped(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A writer without declaration or root, for escaping alone.
    private init(bare: Void) {
        root = ""
    }

    /// A small document: the root element holding one empty element, such as the body of a
    /// refusal `<d:error><d:propfind-finite-depth/></d:error>`.
    static func error(_ condition: String, inner: (inout WebDAVXMLWriter) -> Void = { _ in }) -> Data {
        var writer = WebDAVXMLWriter(root: "d:error", capacity: 256)
        writer.open(condition)
        inner(&writer)
        writer.close(condition)
        return writer.finish()
    }
}
