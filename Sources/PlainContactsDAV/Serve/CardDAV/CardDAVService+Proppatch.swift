/// `PROPPATCH` (RFC 4918 section 9.2).
extension CardDAVService {
    /// Answers `PROPPATCH` on any resource by refusing every property it sets or removes: one
    /// 207 multistatus whose single propstat gives them all status 403 with
    /// `DAV:cannot-modify-protected-property`, and nothing is written.
    ///
    /// The store keeps no free-form properties: the address book's name, a card's ETag and the
    /// rest come from the store's own files, so none can be changed this way. As every property
    /// fails for the same reason, none needs 424 (Failed Dependency). Clients such as macOS
    /// Contacts, which set `displayname` on the address book, carry on after the refusal.
    ///
    /// ```
    /// PROPPATCH /me/contacts/   <d:propertyupdate><d:set><d:prop><d:displayname>Work</d:displayname>…
    /// 207   <d:propstat><d:prop><d:displayname/></d:prop><d:status>HTTP/1.1 403 Forbidden</d:status>
    ///       <d:error><d:cannot-modify-protected-property/></d:error></d:propstat>
    /// ```
    ///
    /// - Throws: a 400 failure for a body that is not well-formed XML, not a
    ///   `DAV:propertyupdate`, malformed (see ``propertyNames(in:)``) or names no property; a
    ///   404 failure for a card that does not exist.
    func proppatch(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, book: CardDAVServedBook?
    ) throws -> HTTPServerResponse {
        guard let body = try Self.xmlBody(of: request), body.name == .dav("propertyupdate") else {
            throw CardDAVFailure(status: 400, text: "the body is not a DAV propertyupdate")
        }
        let names = try Self.propertyNames(in: body)
        guard !names.isEmpty else {
            throw CardDAVFailure(status: 400, text: "the propertyupdate sets or removes no property")
        }
        if case .card(let name) = resource, try book?.collection.card(named: name) == nil {
            throw CardDAVFailure(status: 404)
        }
        var xml = WebDAVXMLWriter(root: "d:multistatus")
        xml.open("d:response")
        xml.href(space.href(of: resource))
        xml.open("d:propstat")
        xml.open("d:prop")
        for name in names { xml.empty(name) }
        xml.close("d:prop")
        xml.status(403)
        xml.open("d:error")
        xml.empty("d:cannot-modify-protected-property")
        xml.close("d:error")
        xml.close("d:propstat")
        xml.close("d:response")
        return Self.multistatus(&xml)
    }

    /// The properties in the `prop` elements of a `propertyupdate`'s `set` and `remove`
    /// instructions, in the order given, each once; other elements are ignored, as RFC 4918
    /// asks of elements a server does not know.
    ///
    /// - Throws: a 400 failure for a `set` or `remove` that does not hold exactly one `prop`
    ///   (RFC 4918 section 14.19), or for text where only elements belong (in `propertyupdate`,
    ///   `set`, `remove` or `prop`).
    static func propertyNames(in update: WebDAVElement) throws -> [WebDAVElement.Name] {
        try requireElementsOnly(update)
        var names: [WebDAVElement.Name] = []
        var seen: Set<WebDAVElement.Name> = []
        for instruction in update.children where instruction.name == .dav("set") || instruction.name == .dav("remove") {
            try requireElementsOnly(instruction)
            let props = instruction.children.filter { $0.name == .dav("prop") }
            guard props.count == 1 else {
                throw CardDAVFailure(status: 400, text: "a set or remove of the propertyupdate holds other than one prop")
            }
            try requireElementsOnly(props[0])
            for property in props[0].children where seen.insert(property.name).inserted {
                names.append(property.name)
            }
        }
        return names
    }
}
