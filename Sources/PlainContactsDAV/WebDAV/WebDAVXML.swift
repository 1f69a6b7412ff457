import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a WebDAV XML body into a tree of ``WebDAVElement``s, safely: a body that declares a
/// document type (where entities, external or not, would be defined) is refused before it is
/// parsed, and external entities are off besides.
enum WebDAVXML {
    /// Why a body is not WebDAV XML this reader takes; `message` says it of "the body".
    struct Refusal: Error, Sendable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The root element of `data`.
    ///
    /// - Throws: a ``Refusal`` for XML that is not well formed, holds a document type
    ///   declaration or nests deeper than `maximumDepth`.
    static func parse(_ data: Data, maximumDepth: Int) throws(Refusal) -> WebDAVElement {
        if declaresDocumentType(data) {
            throw Refusal(message: "the body declares a document type, which WebDAV never needs; refused")
        }
        // Fed as a stream: given as one `Data`, FoundationXML's parser refuses any body over
        // 10 MB (libxml2's lookup limit), such as the listing of 100,000 cards.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder(maximumDepth: maximumDepth)
        parser.delegate = builder
        let parsed = parser.parse()
        if builder.tooDeep {
            throw Refusal(message: "the body nests elements deeper than \(maximumDepth) levels")
        }
        guard parsed, let root = builder.root else {
            let line = parser.lineNumber
            throw Refusal(message: "the body is not well-formed XML (near line \(line))")
        }
        return root
    }

    /// Whether the bytes hold `<!DOCTYPE` (in any case) before the root element.
    static func declaresDocumentType(_ data: Data) -> Bool {
        let marker = Array("<!doctype".utf8)
        let bytes = [UInt8](data)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) {
            var matches = true
            for offset in 0..<marker.count {
                var byte = bytes[start + offset]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                if byte != marker[offset] {
                    matches = false
                    break
                }
            }
            if matches { return true }
        }
        return false
    }

    /// Builds the element tree as the parser reports elements.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        let maximumDepth: Int
        private var stack: [WebDAVElement] = []
        private(set) var root: WebDAVElement?
        private(set) var tooDeep = false

        init(maximumDepth: Int) {
            self.maximumDepth = maximumDepth
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard stack.count < maximumDepth else {
                tooDeep = true
                parser.abortParsing()
                return
            }
            var named: [String: String] = [:]
            for (name, value) in attributes {
                // Without a prefix, or with one: the local name is what a filter asks for.
                named[name.split(separator: ":").last.map(String.init) ?? name] = value
            }
            stack.append(
                WebDAVElement(
                    name: .init(namespace: namespaceURI ?? "", local: elementName), text: "", children: [], attributes: named))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
