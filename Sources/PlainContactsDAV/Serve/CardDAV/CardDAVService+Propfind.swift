/// `PROPFIND` (RFC 4918 section 9.1).
extension CardDAVService {
    /// Answers `PROPFIND` on a resource and, with `Depth: 1`, its members: the root's member is
    /// the principal, the principal's the address book, the address book's every card.
    ///
    /// A request without `Depth` is answered as `Depth: 0`, as Radicale does (clients that leave
    /// it out want the resource itself); `Depth: infinity` is refused with 403 and
    /// `DAV:propfind-finite-depth`, which RFC 4918 allows: a client then asks level by level.
    /// A body that is not a well-formed `DAV:propfind` is 400 (see
    /// ``propertyRequest(ofPropfind:)``).
    ///
    /// The principal's member are the `books` the user may use, in order; an address book and
    /// its cards are answered from `target`.
    func propfind(
        _ request: HTTPServerRequest, resource: CardDAVURLSpace.Resource, space: CardDAVURLSpace, target: Target? = nil,
        books: [Target] = []
    ) throws -> HTTPServerResponse {
        guard let depth = try Self.depth(of: request, missing: 0) else {
            throw CardDAVFailure(status: 403, condition: "d:propfind-finite-depth")
        }
        let body = try Self.xmlBody(of: request)
        let asking = try Self.propertyRequest(ofPropfind: body)
        var context = PropertyContext(space: space, addressDataProperties: CardDAVPropertyRequest.addressDataProperties(in: body))
        var xml = WebDAVXMLWriter(root: "d:multistatus")
        switch resource {
        case .wellKnownFolder:
            context.pageLength = Self.pageLength(of: .wellKnownFolder, space: space, books: [], asking: asking)
            Self.writeResponse(.wellKnownFolder, asking: asking, context: context, into: &xml)
        case .root, .wellKnown:
            context.pageLength = Self.pageLength(of: .root, space: space, books: books, asking: asking)
            Self.writeResponse(.root, asking: asking, context: context, into: &xml)
            if depth == 1 {
                context.pageLength = Self.pageLength(of: .principal, space: space, books: books, asking: asking)
                Self.writeResponse(.principal, asking: asking, context: context, into: &xml)
            }
        case .principal:
            context.pageLength = Self.pageLength(of: .principal, space: space, books: books, asking: asking)
            Self.writeResponse(.principal, asking: asking, context: context, into: &xml)
            if depth == 1 {
                for book in books {
                    var bookContext = context
                    bookContext.space.book = book.book.name
                    bookContext.target = book
                    let listing = try book.book.collection.listing()
                    bookContext.token = listing.token
                    bookContext.pageLength = asking.wantsContentLength ? Self.page(of: listing, space: bookContext.space).body.count : nil
                    Self.writeResponse(.collection, asking: asking, context: bookContext, into: &xml)
                }
            }
        case .collection:
            guard let target else { throw CardDAVFailure(status: 404) }
            let collection = target.book.collection
            context.target = target
            let listing = try collection.listing()
            context.token = listing.token
            context.pageLength = asking.wantsContentLength ? Self.page(of: listing, space: space).body.count : nil
            Self.writeResponse(.collection, asking: asking, context: context, into: &xml)
            if depth == 1 {
                // The order of a multistatus's responses means nothing (RFC 4918 section 9.1):
                // the cards are written as the listing holds them, not sorted, which took a
                // tenth of a listing of 100,000.
                let names = Array(listing.entries.keys)
                let cards = try collection.cards(named: Self.cardsToMake(of: names, in: listing.entries, asking: asking))
                xml = WebDAVXMLWriter(root: "d:multistatus", capacity: 512 + names.count * 320)
                Self.writeResponse(.collection, asking: asking, context: context, into: &xml)
                var cardContext = context
                cardContext.token = nil
                cardContext.pageLength = nil
                for (name, listed) in listing.entries {
                    let made = cards.isEmpty ? nil : cards[name]
                    cardContext.entry = made?.entry ?? listed
                    cardContext.data = made?.data
                    Self.writeResponse(.card(name), asking: asking, context: cardContext, into: &xml)
                }
            }
        case .card(let name):
            guard let target, let card = try target.book.collection.card(named: name) else { throw CardDAVFailure(status: 404) }
            context.target = target
            context.entry = card.entry
            context.data = asking.wantsAddressData ? card.data : nil
            Self.writeResponse(resource, asking: asking, context: context, into: &xml)
        case .birthdayCalendar:
            throw CardDAVFailure.notOnBirthdayCalendar
        }
        return Self.multistatus(&xml)
    }

    /// The cards among `names` that must be made to answer a request: every one for
    /// `address-data`, those not made yet for `getcontentlength`, else none.
    static func cardsToMake(
        of names: [String], in entries: [String: CardDAVEntry], asking: CardDAVPropertyRequest
    ) -> [String] {
        if asking.wantsAddressData { return names }
        guard asking.wantsContentLength else { return [] }
        return names.filter { entries[$0]?.length == CardDAVEntry.unknownLength }
    }

    /// What a `PROPFIND` body asks for: `allprop` for no body, or a `DAV:propfind` without
    /// children, as RFC 4918 section 9.1 has it.
    ///
    /// ```swift
    /// // <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>
    /// try CardDAVService.propertyRequest(ofPropfind: body)   // .named([DAV: getetag])
    /// ```
    ///
    /// - Throws: a 400 failure for a body that is not a `DAV:propfind`, or one that holds
    ///   elements but not exactly one of `prop`, `propname` and `allprop`, or what
    ///   ``propertyRequest(in:required:)`` refuses.
    static func propertyRequest(ofPropfind body: WebDAVElement?) throws -> CardDAVPropertyRequest {
        guard let body else { return CardDAVPropertyRequest(nil) }
        guard body.name == .dav("propfind") else { throw CardDAVFailure(status: 400, text: "the body is not a DAV propfind") }
        return try propertyRequest(in: body, required: !body.children.isEmpty)
    }

    /// What a `propfind` element, or the body of a report (which holds the same children),
    /// asks for; `allprop` when it holds none of `prop`, `propname` and `allprop`.
    ///
    /// ```swift
    /// // <card:addressbook-multiget …><d:prop><d:getetag/></d:prop><d:href>…</d:href>…
    /// try CardDAVService.propertyRequest(in: body, required: false)   // .named([DAV: getetag])
    /// ```
    ///
    /// - Throws: a 400 failure for an element that holds more than one of `prop`, `propname`
    ///   and `allprop` (none, when they are `required`), or `include` without `allprop`, or
    ///   that has text where only elements belong (in the element itself, `prop` or
    ///   `include`).
    static func propertyRequest(in element: WebDAVElement, required: Bool) throws -> CardDAVPropertyRequest {
        try requireElementsOnly(element)
        let kinds = element.children.filter { [.dav("prop"), .dav("propname"), .dav("allprop")].contains($0.name) }
        let include = element.child(.dav("include"))
        guard kinds.count == 1 || (kinds.isEmpty && !required), include == nil || kinds.first?.name == .dav("allprop") else {
            throw CardDAVFailure(status: 400, text: "the body asks for other than one of prop, propname and allprop")
        }
        if let prop = element.child(.dav("prop")) { try requireElementsOnly(prop) }
        if let include { try requireElementsOnly(include) }
        return CardDAVPropertyRequest(element)
    }

    /// Checks that an element holds only elements (and the white space between them), as a
    /// `prop` holds property names.
    ///
    /// - Throws: a 400 failure for text in the element.
    static func requireElementsOnly(_ element: WebDAVElement) throws {
        guard element.text.trimmingWhitespaceAndNewlines.isEmpty else {
            throw CardDAVFailure(status: 400, text: "the body has text where only elements belong")
        }
    }
}
