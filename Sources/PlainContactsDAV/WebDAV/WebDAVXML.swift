import FoundationEssentials

/// The one entry point through which the server and the client read XML: a WebDAV body (a
/// request's `PROPFIND`, `REPORT` or `PROPPATCH`, a server's multistatus or error) into a tree
/// of ``WebDAVElement``s, or a refusal.
///
/// The bytes pass ``XMLBodyEncoding`` first: a body that is not UTF-8 (or the encoding it
/// declares) is refused before any parser sees it. ``XMLReader`` then reads them, refusing a
/// document type declaration (where entities, external or not, would be defined), undeclared
/// entities and nesting past a limit. Both are Swift over checked indices: no byte sequence can
/// do more than be refused.
///
/// ```swift
/// let root = try WebDAVXML.parse(request.body, maximumDepth: 32)
/// root.name   // DAV: propfind
/// ```
enum WebDAVXML {
    /// Why a body is not WebDAV XML this reader takes; `message` says it of "the body".
    struct Refusal: Error, Sendable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The root element of `data`.
    ///
    /// - Throws: a ``Refusal`` for bytes that are not UTF-8 or the encoding they declare, XML
    ///   that is not well formed, a document type declaration, or nesting deeper than
    ///   `maximumDepth`.
    static func parse(_ data: Data, maximumDepth: Int) throws(Refusal) -> WebDAVElement {
        // Read in place: a body that is UTF-8 already (as nearly every one is) is not copied.
        let result = data.withUnsafeBytes { raw in
            Result { () throws(Refusal) in try parse(raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// The root element of a body's bytes, checked and read.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(Refusal) -> WebDAVElement {
        let checked = try XMLBodyEncoding.check(bytes)
        let reader = XMLReader(maximumDepth: maximumDepth)
        do throws(XMLReader.Failure) {
            switch checked {
            case .asSent(let offset): return try reader.read(UnsafeBufferPointer(rebasing: bytes[offset...]))
            case .transcoded(let body): return try reader.read(body)
            }
        } catch {
            if error.tooDeep {
                throw Refusal(message: "the body nests elements deeper than \(maximumDepth) levels")
            }
            throw Refusal(message: "the body is not well-formed XML (line \(error.line): \(error.reason))")
        }
    }
}
