import FoundationEssentials

extension FuzzMutator {
    /// Byte sequences that are not UTF-8: a byte no UTF-8 has, stray continuation bytes, an
    /// overlong slash, a surrogate, a scalar past U+10FFFF, sequences cut short, and bytes XML
    /// does not allow (NUL, a control, U+FFFE).
    static let invalidSequences: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF, 0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x28],
        [0x00], [0x01], [0x1B], [0xEF, 0xBF, 0xBE], [0xEF, 0xBB, 0xBF],
    ]

    /// Encodings an XML declaration may name: read here, not read here, and garbled.
    static let declaredEncodings: [[UInt8]] = [
        Array("UTF-8".utf8), Array("ISO-8859-1".utf8), Array("windows-1252".utf8), Array("US-ASCII".utf8),
        Array("UTF-16".utf8), Array("UTF-16LE".utf8), Array("EBCDIC-US".utf8), Array("Shift_JIS".utf8), [],
        [0xFF, 0xFE, 0x41], Array(String(repeating: "x", count: 5000).utf8),
    ]

    /// Where in a WebDAV body a mutation aims.
    enum XMLSite: CaseIterable {
        case elementName, attributeName, prefix, namespaceURI, text, declaration
    }

    /// `data`, a WebDAV body, with one to three mutations: invalid UTF-8 placed in an element or
    /// attribute name, a namespace prefix or URI, text or the XML declaration's encoding; a
    /// declaration naming another encoding (the body maybe turned into UTF-16); a name made
    /// huge; a cut; markup that is not well formed; or the byte-level damage of
    /// ``mutate(_:)``.
    mutating func mutateXML(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for _ in 0...below(3) {
            switch below(10) {
            case 0, 1, 2, 3:
                let site = XMLSite.allCases[below(XMLSite.allCases.count)]
                insert(Self.invalidSequences[below(Self.invalidSequences.count)], at: site, in: &bytes)
            case 4:
                redeclareEncoding(&bytes)
            case 5:
                let site: XMLSite = below(2) == 0 ? .elementName : .prefix
                let piece = ["n", "é", "名", "-", "😀"][below(5)]
                insert(Self.repeated(piece, count: 1000 + below(200_000)), at: site, in: &bytes)
            case 6:
                bytes.removeSubrange(below(bytes.count + 1)...)
            case 7:
                let markup = [
                    "<!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>", "&x;", "&#0;", "&#xD800;", "&#1114112;",
                    "&#99999999999999999999;", "<![CDATA[", "]]>", "<?xml version=\"1.0\"?>", "</", "<p:x/>", " xmlns:p=\"\"",
                    " xmlns=\"\"", "<a b='1' b='2'/>", "<d:x>", "<!--", "\r",
                ]
                let position = below(bytes.count + 1)
                let chosen = markup[below(markup.count)]
                bytes.insert(contentsOf: chosen == "<d:x>" ? Self.repeated(chosen, count: 100 + below(100_000)) : Array(chosen.utf8), at: position)
            default:
                bytes = [UInt8](mutate(Data(bytes)))
            }
        }
        return Data(bytes)
    }

    /// The UTF-8 of `piece` written `count` times.
    static func repeated(_ piece: String, count: Int) -> [UInt8] {
        let unit = Array(piece.utf8)
        let total = unit.count * count
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var index = 0
            while index < total {
                buffer[index] = unit[index % unit.count]
                index += 1
            }
            initialized = total
        }
    }

    /// Inserts `piece` somewhere inside a place of the kind `site` (anywhere when the body has
    /// none).
    private mutating func insert(_ piece: [UInt8], at site: XMLSite, in bytes: inout [UInt8]) {
        let places = Self.places(of: site, in: bytes)
        guard !places.isEmpty else {
            bytes.insert(contentsOf: piece, at: below(bytes.count + 1))
            return
        }
        let place = places[below(places.count)]
        bytes.insert(contentsOf: piece, at: place.lowerBound + below(place.count + 1))
    }

    /// Gives the body an XML declaration naming an encoding, sometimes with the body written
    /// in UTF-16 (either byte order, with or without its mark).
    private mutating func redeclareEncoding(_ bytes: inout [UInt8]) {
        if let declaration = Self.places(of: .declaration, in: bytes).first {
            bytes.replaceSubrange(declaration, with: Self.declaredEncodings[below(Self.declaredEncodings.count)])
        } else {
            let encoding = Self.declaredEncodings[below(Self.declaredEncodings.count)]
            bytes.insert(contentsOf: Array("<?xml version=\"1.0\" encoding=\"".utf8) + encoding + Array("\"?>".utf8), at: 0)
        }
        guard below(3) == 0 else { return }
        let bigEndian = below(2) == 0
        var units: [UInt8] = below(2) == 0 ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        units.reserveCapacity(bytes.count * 2 + 2)
        for unit in String(decoding: bytes, as: UTF8.self).utf16 {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            units.append(bigEndian ? high : low)
            units.append(bigEndian ? low : high)
        }
        bytes = units
    }

    /// The ranges of the body that are places of the kind `site`.
    static func places(of site: XMLSite, in bytes: [UInt8]) -> [Range<Int>] {
        var places: [Range<Int>] = []
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<"))
        }
        func nameEnd(from start: Int) -> Int {
            var end = start
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            return end
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, ![UInt8(ascii: "!"), UInt8(ascii: "?")].contains(bytes[index + 1]) {
                let start = bytes[index + 1] == UInt8(ascii: "/") ? index + 2 : index + 1
                let end = nameEnd(from: start)
                let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":"))
                switch site {
                case .elementName: places.append((colon.map { $0 + 1 } ?? start)..<end)
                case .prefix: if let colon { places.append(start..<colon) }
                default: break
                }
                index = end
                continue
            }
            if byte == UInt8(ascii: "=") {
                var start = index
                while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
                let name = bytes[start..<index]
                let valueStart = index + 2
                let quote = index + 1 < bytes.count ? bytes[index + 1] : 0
                let valueEnd = bytes[min(valueStart, bytes.count)...].firstIndex(of: quote) ?? bytes.count
                let isDeclaration = name.starts(with: Array("xmlns".utf8))
                let isEncoding = name.elementsEqual(Array("encoding".utf8))
                switch site {
                case .attributeName where !isDeclaration && !isEncoding: places.append(start..<index)
                case .prefix where isDeclaration && name.count > 6: places.append((start + 6)..<index)
                case .namespaceURI where isDeclaration && valueStart <= valueEnd: places.append(valueStart..<valueEnd)
                case .declaration where isEncoding && valueStart <= valueEnd: places.append(valueStart..<valueEnd)
                default: break
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: ">"), site == .text {
                let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                if end > index + 1 { places.append((index + 1)..<end) }
            }
            index += 1
        }
        return places
    }
}
