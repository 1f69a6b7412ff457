/// A reader of XML 1.0 with namespaces, over bytes ``XMLBodyEncoding`` has checked: the element
/// tree of a WebDAV body, and nothing a WebDAV body does not need.
///
/// It reads elements, attributes, namespace declarations, text, the five predefined entities,
/// character references, CDATA sections, comments and processing instructions, and refuses
/// what is not well formed: a document type declaration (where entities would be defined), an
/// undeclared entity or prefix, a name that is not an XML name, an end tag that does not match,
/// a duplicate attribute, content outside the root element, nesting deeper than its limit.
/// Line ends outside CDATA sections are read as line feeds. It is written in Swift over a byte buffer, with every
/// index checked, so that no input can do more than be refused.
///
/// ```swift
/// let bytes = try XMLBodyEncoding.utf8(of: body)
/// var reader = XMLReader(maximumDepth: 16)
/// let root = try reader.read(bytes)   // <d:propfind xmlns:d="DAV:"> is DAV: propfind
/// ```
struct XMLReader {
    /// Why the bytes are not XML this reader takes, and the line where it saw it.
    struct Failure: Error, Sendable {
        var reason: String
        var line: Int
        /// Whether the failure is the nesting limit rather than the XML itself.
        var tooDeep = false
    }

    /// The namespace the `xml` prefix is bound to without a declaration.
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    let maximumDepth: Int

    /// A reader that refuses elements nested deeper than `maximumDepth`.
    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// The root element of `bytes`, which must be UTF-8 holding only XML characters.
    ///
    /// - Throws: a ``Failure`` for anything that is not a well-formed, namespace-well-formed
    ///   document without a document type, or that nests deeper than ``maximumDepth``.
    func read(_ bytes: [UInt8]) throws(Failure) -> WebDAVElement {
        try bytes.withUnsafeBufferPointer { buffer throws(Failure) in try read(buffer) }
    }

    /// The root element of the bytes in `buffer`, as ``read(_:)-([UInt8])`` reads them.
    func read(_ buffer: UnsafeBufferPointer<UInt8>) throws(Failure) -> WebDAVElement {
        var cursor = Cursor(bytes: buffer, maximumDepth: maximumDepth)
        return try cursor.document()
    }

    /// Appends the UTF-8 encoding of the scalar `value` (a valid one) to `output`.
    static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case ..<0x80:
            output.append(UInt8(value))
        case ..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18 & 0x07))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

extension XMLReader {
    /// An element being read: its name as written (to match the end tag), what it holds so
    /// far, and how many namespace bindings were in scope before it.
    private struct OpenElement {
        var qualifiedName: Range<Int>
        var element: WebDAVElement
        var text: [UInt8] = []
        var bindingsBefore: Int
    }

    /// The reading state: the buffer, the position, the open elements and the namespace
    /// bindings in scope, innermost last.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        var position = 0
        var open: [OpenElement] = []
        var bindings: [(prefix: String, namespace: String)] = [("xml", XMLReader.xmlNamespace)]

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        // MARK: The document

        /// Reads the prolog, the root element and what may follow it.
        mutating func document() throws(Failure) -> WebDAVElement {
            if startsWith("<?xml"), position + 5 < bytes.count, isSpace(bytes[position + 5]) {
                try skipPast("?>", what: "the XML declaration")
            }
            try miscellany()
            guard position < bytes.count else { throw fail("no root element") }
            guard bytes[position] == UInt8(ascii: "<") else { throw fail("text before the root element") }
            let root = try rootElement()
            try miscellany()
            guard position == bytes.count else { throw fail("content after the root element") }
            return root
        }

        /// Skips white space, comments and processing instructions outside the root element;
        /// refuses a document type declaration.
        mutating func miscellany() throws(Failure) {
            while position < bytes.count {
                if isSpace(bytes[position]) {
                    position += 1
                } else if startsWith("<!--") {
                    try skipPast("-->", what: "a comment")
                } else if startsWith("<!") {
                    throw fail(startsWithIgnoringCase("<!doctype") ? "a document type declaration, which WebDAV never needs" : "a markup declaration")
                } else if startsWith("<?") {
                    try processingInstruction()
                } else {
                    return
                }
            }
        }

        /// Reads the root element and everything in it, returning it when its end tag is read.
        mutating func rootElement() throws(Failure) -> WebDAVElement {
            while true {
                guard position < bytes.count else {
                    throw fail(open.isEmpty ? "no root element" : "the body ends inside an element")
                }
                if bytes[position] == UInt8(ascii: "<") {
                    if byte(at: position + 1) == UInt8(ascii: "/") {
                        let element = try endTag()
                        if open.isEmpty { return element }
                        open[open.count - 1].element.children.append(element)
                    } else if startsWith("<!--") {
                        try skipPast("-->", what: "a comment")
                    } else if startsWith("<![CDATA[") {
                        try cdata()
                    } else if byte(at: position + 1) == UInt8(ascii: "!") {
                        throw fail("a markup declaration inside an element")
                    } else if byte(at: position + 1) == UInt8(ascii: "?") {
                        try processingInstruction()
                    } else if let element = try startTag() {
                        if open.isEmpty { return element }
                        open[open.count - 1].element.children.append(element)
                    }
                } else {
                    try text()
                }
            }
        }

        // MARK: Tags

        /// Reads a start tag; returns the element when it is empty (`<a/>`), else opens it.
        mutating func startTag() throws(Failure) -> WebDAVElement? {
            position += 1
            let name = try qualifiedName()
            var attributes: [(name: Range<Int>, value: [UInt8])] = []
            var closed = false
            while true {
                let hadSpace = skipSpaces()
                guard position < bytes.count else { throw fail("the body ends inside a start tag") }
                if bytes[position] == UInt8(ascii: ">") {
                    position += 1
                    break
                }
                if bytes[position] == UInt8(ascii: "/") {
                    guard byte(at: position + 1) == UInt8(ascii: ">") else { throw fail("a \"/\" inside a start tag") }
                    position += 2
                    closed = true
                    break
                }
                guard hadSpace else { throw fail("an attribute not separated by white space") }
                let attributeName = try qualifiedName()
                skipSpaces()
                guard byte(at: position) == UInt8(ascii: "=") else { throw fail("an attribute without a value") }
                position += 1
                skipSpaces()
                let value = try attributeValue()
                for earlier in attributes where bytes[earlier.name].elementsEqual(bytes[attributeName]) {
                    throw fail("an attribute given twice")
                }
                attributes.append((attributeName, value))
            }
            guard open.count < maximumDepth else {
                var failure = fail("elements nested deeper than \(maximumDepth) levels")
                failure.tooDeep = true
                throw failure
            }
            let bindingsBefore = bindings.count
            var named: [String: String] = [:]
            var prefixedAttributes: [(prefix: String, local: String, value: String)] = []
            for (attributeName, value) in attributes {
                let (prefix, local) = split(attributeName)
                let text = String(decoding: value, as: UTF8.self)
                if prefix == nil && local == "xmlns" {
                    bindings.append(("", text))
                } else if prefix == "xmlns" {
                    guard local != "xmlns", !text.isEmpty else { throw fail("a namespace prefix bound to nothing or to xmlns") }
                    guard local != "xml" || text == XMLReader.xmlNamespace else { throw fail("the xml prefix bound elsewhere") }
                    bindings.append((local, text))
                } else if let prefix {
                    prefixedAttributes.append((prefix, local, text))
                } else {
                    named[local] = text
                }
            }
            for attribute in prefixedAttributes {
                guard namespace(of: attribute.prefix) != nil else { throw fail("an undeclared namespace prefix") }
                // With a prefix or without: the local name is what a filter asks for.
                named[attribute.local] = attribute.value
            }
            let (prefix, local) = split(name)
            guard let elementNamespace = namespace(of: prefix ?? "") ?? (prefix == nil ? "" : nil) else {
                throw fail("an undeclared namespace prefix")
            }
            let element = WebDAVElement(
                name: .init(namespace: elementNamespace, local: local), text: "", children: [], attributes: named)
            if closed {
                bindings.removeSubrange(bindingsBefore...)
                return element
            }
            open.append(OpenElement(qualifiedName: name, element: element, bindingsBefore: bindingsBefore))
            return nil
        }

        /// Reads an end tag, closes the element it ends and returns that element.
        mutating func endTag() throws(Failure) -> WebDAVElement {
            position += 2
            let name = try qualifiedName()
            skipSpaces()
            guard byte(at: position) == UInt8(ascii: ">") else { throw fail("an end tag not closed by \">\"") }
            position += 1
            guard var closing = open.popLast() else { throw fail("an end tag without a start tag") }
            guard bytes[closing.qualifiedName].elementsEqual(bytes[name]) else {
                throw fail("an end tag that does not match its start tag")
            }
            bindings.removeSubrange(closing.bindingsBefore...)
            closing.element.text = String(decoding: closing.text, as: UTF8.self)
            return closing.element
        }

        /// The namespace bound to `prefix` (`""` for the default namespace), or `nil`.
        func namespace(of prefix: String) -> String? {
            for binding in bindings.reversed() where binding.prefix == prefix {
                return binding.namespace
            }
            return nil
        }

        /// A qualified name's prefix (or `nil`) and local part.
        func split(_ name: Range<Int>) -> (prefix: String?, local: String) {
            guard let colon = bytes[name].firstIndex(of: UInt8(ascii: ":")) else {
                return (nil, String(decoding: bytes[name], as: UTF8.self))
            }
            return (String(decoding: bytes[name.lowerBound..<colon], as: UTF8.self),
                String(decoding: bytes[(colon + 1)..<name.upperBound], as: UTF8.self))
        }

        /// Reads a name with at most one colon, neither first nor last (a QName of XML
        /// namespaces), and returns where it lies.
        mutating func qualifiedName() throws(Failure) -> Range<Int> {
            let start = position
            var colon: Int?
            var first = true
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: ":") {
                    guard colon == nil, !first else { throw fail("a name with a misplaced colon") }
                    colon = position
                    position += 1
                    first = true
                    continue
                }
                let (scalar, length) = decode(at: position)
                guard first ? Self.isNameStart(scalar) : Self.isNameCharacter(scalar) else { break }
                position += length
                first = false
            }
            guard position > start else { throw fail("a tag without a name") }
            guard !first else { throw fail("a name with a misplaced colon") }
            return start..<position
        }

        /// Reads a quoted attribute value, references decoded and white space characters read
        /// as spaces.
        mutating func attributeValue() throws(Failure) -> [UInt8] {
            guard let quote = byte(at: position), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw fail("an attribute value without quotes")
            }
            position += 1
            var value: [UInt8] = []
            while true {
                guard position < bytes.count else { throw fail("the body ends inside an attribute value") }
                let byte = bytes[position]
                switch byte {
                case quote:
                    position += 1
                    return value
                case UInt8(ascii: "<"):
                    throw fail("a \"<\" inside an attribute value")
                case UInt8(ascii: "&"):
                    try reference(into: &value)
                case 0x0D:
                    value.append(0x20)
                    position += self.byte(at: position + 1) == 0x0A ? 2 : 1
                case 0x09, 0x0A:
                    value.append(0x20)
                    position += 1
                default:
                    value.append(byte)
                    position += 1
                }
            }
        }

        // MARK: Content

        /// Reads text up to the next markup into the innermost open element.
        mutating func text() throws(Failure) {
            var run = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "<") { break }
                if byte == UInt8(ascii: "&") || byte == 0x0D {
                    appendText(run..<position)
                    if byte == 0x0D {
                        appendText(newline: ())
                        position += self.byte(at: position + 1) == 0x0A ? 2 : 1
                    } else {
                        var decoded: [UInt8] = []
                        try reference(into: &decoded)
                        open[open.count - 1].text.append(contentsOf: decoded)
                    }
                    run = position
                    continue
                }
                position += 1
            }
            appendText(run..<position)
        }

        /// Appends a run of text bytes to the innermost open element.
        mutating func appendText(_ range: Range<Int>) {
            guard !range.isEmpty, !open.isEmpty else { return }
            open[open.count - 1].text.append(contentsOf: bytes[range])
        }

        /// Appends a line feed to the innermost open element.
        mutating func appendText(newline: ()) {
            guard !open.isEmpty else { return }
            open[open.count - 1].text.append(0x0A)
        }

        /// Reads a CDATA section into the innermost open element, as written: a vCard's CRLF
        /// line ends stay (as libxml2 kept them), where text elsewhere reads them as line feeds.
        mutating func cdata() throws(Failure) {
            position += 9
            guard let end = find("]]>") else { throw fail("a CDATA section without its end") }
            appendText(position..<end)
            position = end + 3
        }

        /// Reads an entity or character reference at `&` and appends what it stands for.
        mutating func reference(into output: inout [UInt8]) throws(Failure) {
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: ";") {
                guard position - start < 16 else { throw fail("a reference without its \";\"") }
                position += 1
            }
            guard position < bytes.count else { throw fail("a reference without its \";\"") }
            let name = bytes[start..<position]
            position += 1
            if let predefined = Self.predefinedEntity(name) {
                output.append(predefined)
                return
            }
            guard name.first == UInt8(ascii: "#"), let value = Self.characterReference(name.dropFirst()) else {
                throw fail("an undeclared entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)")
            }
            XMLReader.appendUTF8(value, to: &output)
        }

        /// The five entities XML defines without a declaration, and what each stands for.
        static let predefinedEntities: [(name: StaticString, character: UInt8)] = [
            ("lt", UInt8(ascii: "<")), ("gt", UInt8(ascii: ">")), ("amp", UInt8(ascii: "&")),
            ("quot", UInt8(ascii: "\"")), ("apos", UInt8(ascii: "'")),
        ]

        /// The character one of the five predefined entities (`lt`, `gt`, `amp`, `quot`,
        /// `apos`) stands for, or `nil`.
        static func predefinedEntity(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> UInt8? {
            for entity in predefinedEntities where entity.name.utf8CodeUnitCount == name.count {
                let matches = entity.name.withUTF8Buffer { expected in expected.elementsEqual(name) }
                if matches { return entity.character }
            }
            return nil
        }

        /// The character a reference's digits (`38`, `x26`) name, if it is one XML allows.
        static func characterReference(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32? {
            var digits = digits[...]
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty else { return nil }
            var value: UInt32 = 0
            for digit in digits {
                let number: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): number = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: number = UInt32(digit - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: number = UInt32(digit - UInt8(ascii: "A")) + 10
                default: return nil
                }
                value = value * radix + number
                guard value <= 0x10FFFF else { return nil }
            }
            switch value {
            case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return value
            default: return nil
            }
        }

        /// Skips a processing instruction; an XML declaration anywhere but the start is refused.
        mutating func processingInstruction() throws(Failure) {
            if startsWithIgnoringCase("<?xml"), let after = byte(at: position + 5), isSpace(after) || after == UInt8(ascii: "?") {
                throw fail("an XML declaration that is not at the start")
            }
            try skipPast("?>", what: "a processing instruction")
        }

        // MARK: Bytes

        /// The byte at `index`, or `nil` past the end.
        func byte(at index: Int) -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        /// Whether the bytes at the position are `prefix`.
        func startsWith(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return prefix.withUTF8Buffer { expected in
                for offset in 0..<count where bytes[position + offset] != expected[offset] { return false }
                return true
            }
        }

        /// Whether the bytes at the position are `prefix`, in any case (`prefix` lowercase).
        func startsWithIgnoringCase(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            return prefix.withUTF8Buffer { expected in
                for offset in 0..<count {
                    var byte = bytes[position + offset]
                    if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                    if byte != expected[offset] { return false }
                }
                return true
            }
        }

        /// Where `marker` next starts at or after the position, or `nil`.
        func find(_ marker: StaticString) -> Int? {
            let count = marker.utf8CodeUnitCount
            return marker.withUTF8Buffer { expected -> Int? in
                guard count > 0, bytes.count >= count else { return nil }
                var index = position
                while index <= bytes.count - count {
                    if bytes[index] == expected[0] {
                        var matches = true
                        for offset in 1..<count where bytes[index + offset] != expected[offset] {
                            matches = false
                            break
                        }
                        if matches { return index }
                    }
                    index += 1
                }
                return nil
            }
        }

        /// Moves past the next `marker`.
        ///
        /// - Throws: a ``Failure`` naming `what` when there is none.
        mutating func skipPast(_ marker: StaticString, what: String) throws(Failure) {
            guard let end = find(marker) else { throw fail("\(what) without its end") }
            position = end + marker.utf8CodeUnitCount
        }

        /// Skips white space; returns whether there was any.
        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = position
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            return position > start
        }

        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        /// The scalar at `index` of the checked UTF-8 and its length in bytes.
        func decode(at index: Int) -> (scalar: UInt32, length: Int) {
            let lead = UInt32(bytes[index])
            func continuation(_ offset: Int) -> UInt32 {
                index + offset < bytes.count ? UInt32(bytes[index + offset] & 0x3F) : 0
            }
            switch lead {
            case ..<0x80: return (lead, 1)
            case 0xC0..<0xE0: return ((lead & 0x1F) << 6 | continuation(1), 2)
            case 0xE0..<0xF0: return ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3)
            default: return ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
            }
        }

        /// Whether a scalar may start an XML name (XML 1.0 fifth edition, production 4; the
        /// colon is handled by ``qualifiedName()``).
        static func isNameStart(_ scalar: UInt32) -> Bool {
            switch scalar {
            case 0x41...0x5A, 0x61...0x7A, 0x5F: return true
            case ..<0xC0: return false
            case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
                0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
                return true
            default: return false
            }
        }

        /// Whether a scalar may continue an XML name (production 4a).
        static func isNameCharacter(_ scalar: UInt32) -> Bool {
            switch scalar {
            case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
            default: return isNameStart(scalar)
            }
        }

        /// A failure at the position's line.
        func fail(_ reason: String) -> Failure {
            let end = min(position, bytes.count)
            var line = 1
            for index in 0..<end where bytes[index] == 0x0A { line += 1 }
            return Failure(reason: reason, line: line)
        }
    }
}
