import PlainContacts

/// The person form as HTML: every field labelled, each problem beside its field and named by
/// the field's `aria-describedby`, the rows' buttons (move up, move down, add) submit buttons
/// that work without JavaScript.
extension WebPersonForm {
    /// The labels offered for each property's values (the label field takes any text too).
    static func suggestedLabels(_ property: PropertyID) -> [Label] {
        switch property {
        case .phones: [.mobile, .iPhone, .home, .work, .main, .homeFax, .workFax, .pager, .other]
        case .urls: [.homePage, .home, .work, .other]
        case .relatedNames: [.mother, .father, .parent, .brother, .sister, .child, .friend, .spouse, .partner, .assistant, .manager, .other]
        case .dates: [.anniversary, .other]
        default: [.home, .work, .other]
        }
    }

    /// The form's fields as HTML; `photoPath` is where the person's current photo is served,
    /// when they have one.
    func fieldsHTML(photoPath: String? = nil) -> String {
        var html = kindHTML()
        for property in Self.textProperties + [.birthday] {
            html += textHTML(property)
        }
        html += photoHTML(photoPath)
        for property in Self.rowProperties {
            html += rowsHTML(property)
        }
        for property in Self.rowProperties {
            html += "<datalist id=\"labels-\(property.key)\">"
            html += Self.suggestedLabels(property).map { "<option value=\"\(WebHTML.escaped($0.rawValue))\" label=\"\(WebHTML.escaped($0.localizedName))\">" }.joined()
            html += "</datalist>\n"
        }
        return html
    }

    private func kindHTML() -> String {
        let kind = texts[PropertyID.kind.key] ?? PersonKind.person.rawValue
        var html = "<label for=\"kind\">Kind</label>\n<select id=\"kind\" name=\"kind\">"
        for (value, name) in [("person", "Person"), ("organization", "Organization")] {
            html += "<option value=\"\(value)\"\(kind == value ? " selected" : "")>\(name)</option>"
        }
        return html + "</select>\n"
    }

    private func textHTML(_ property: PropertyID) -> String {
        let key = property.key
        let value = WebHTML.escaped(texts[key] ?? "")
        var html = "<label for=\"\(key)\">\(WebHTML.escaped(Self.capitalizedFirst(property.localizedName)))</label>\n"
        // The birthday's format is said in a hint beside the field, which stays in view.
        let hinted = property == .birthday
        let attributes = described(key, hint: hinted ? "\(key)-hint" : nil)
        if property == .note {
            html += "<textarea id=\"\(key)\" name=\"\(key)\" rows=\"4\"\(attributes)>\(value)</textarea>\n"
        } else {
            html += "<input type=\"text\" id=\"\(key)\" name=\"\(key)\" value=\"\(value)\"\(attributes)>\n"
        }
        if hinted { html += "<p class=\"muted\" id=\"\(key)-hint\">YYYY-MM-DD, or --MM-DD without a year</p>\n" }
        return html + problemHTML(key)
    }

    private func photoHTML(_ photoPath: String?) -> String {
        var html = "<fieldset class=\"photo\"><legend>Photo</legend>\n"
        if let photoPath {
            html += "<img class=\"photo\" src=\"\(WebHTML.escaped(photoPath))\" alt=\"The photo now\" width=\"64\" height=\"64\">\n"
        }
        html += "<label for=\"photo\">\(photoPath == nil ? "A photo" : "Another photo") (JPEG, PNG, GIF or WebP)</label>\n"
        html += "<input type=\"file\" id=\"photo\" name=\"\(Self.photoField)\" accept=\"image/jpeg,image/png,image/gif,image/webp\"\(described(Self.photoField))>\n"
        if photoPath != nil {
            let checked = removesPhoto ? " checked" : ""
            html += "<label class=\"check\"><input type=\"checkbox\" name=\"\(Self.removePhotoField)\" value=\"1\"\(checked)> Remove the photo</label>\n"
        }
        return html + problemHTML(Self.photoField) + "</fieldset>\n"
    }

    /// A property's rows, then blank rows to add values, then its Add button.
    private func rowsHTML(_ property: PropertyID) -> String {
        let key = property.key
        let name = Self.capitalizedFirst(property.localizedName)
        var html = "<fieldset class=\"rows\" id=\"\(key)\"><legend>\(WebHTML.escaped(name))s</legend>\n"
        var list = rows[key] ?? []
        let trailingBlanks = list.reversed().prefix { $0.isBlank && $0.id.isEmpty }.count
        list += Array(repeating: Row(id: "", label: "", parts: [:]), count: max(0, Self.blankRows - trailingBlanks) + (added[key] ?? 0))
        for (index, row) in list.enumerated() {
            html += rowHTML(row, index: index, of: list.count, property: property)
        }
        html += problemHTML(key)
        html += "<p><button type=\"submit\" class=\"secondary\" name=\"\(Self.actionField)\" value=\"add:\(key)\">Add \("aeiou".contains(property.localizedName.prefix(1)) ? "an" : "a") \(WebHTML.escaped(property.localizedName))</button></p>\n"
        return html + "</fieldset>\n"
    }

    /// One row: its identifier, label, parts, buttons and remove box.
    private func rowHTML(_ row: Row, index: Int, of count: Int, property: PropertyID) -> String {
        let key = property.key
        let field = "\(key).\(index)"
        let what = "\(property.localizedName) \(index + 1)"
        let parts = Self.parts(of: property)
        var html = "<div class=\"row\(parts.count > 1 ? " composite" : "")\" role=\"group\" aria-label=\"\(WebHTML.escaped(Self.capitalizedFirst(what)))\">"
        html += "<input type=\"hidden\" name=\"\(field).id\" value=\"\(WebHTML.escaped(row.id))\">"
        html += "<label class=\"label\"><span class=\"\(parts.count > 1 ? "part" : "sr")\">Label of \(WebHTML.escaped(what))</span>"
        html += "<input type=\"text\" name=\"\(field).label\" value=\"\(WebHTML.escaped(row.label))\" list=\"labels-\(key)\"></label>"
        let described = described(field)
        for part in parts {
            let value = WebHTML.escaped(row.parts[part.key] ?? "")
            let caption =
                if parts.count > 1 {
                    "<span class=\"part\">\(WebHTML.escaped(part.name))</span>"
                } else if property == .dates {
                    // The format is said where everyone sees it, not as faint text inside the
                    // field, which goes when typing starts.
                    "<span class=\"part\">\(WebHTML.escaped(Self.capitalizedFirst(what))) (YYYY-MM-DD)</span>"
                } else {
                    "<span class=\"sr\">\(WebHTML.escaped(Self.capitalizedFirst(what)))</span>"
                }
            let name = "\(field).\(part.key)"
            html += "<label class=\"value\">\(caption)"
            if part.key == "street" {
                html += "<textarea name=\"\(name)\" rows=\"2\"\(described)>\(value)</textarea></label>"
            } else {
                html += "<input \(Self.inputKind(property, part: part.key)) name=\"\(name)\" value=\"\(value)\"\(described)></label>"
            }
        }
        html += "<span class=\"tools\">"
        if index > 0 {
            html += "<button type=\"submit\" class=\"secondary\" name=\"\(Self.actionField)\" value=\"move:\(field).up\" aria-label=\"Move \(WebHTML.escaped(what)) up\">↑</button>"
        }
        if index < count - 1 {
            html += "<button type=\"submit\" class=\"secondary\" name=\"\(Self.actionField)\" value=\"move:\(field).down\" aria-label=\"Move \(WebHTML.escaped(what)) down\">↓</button>"
        }
        let checked = row.removed ? " checked" : ""
        html += "<label class=\"check\"><input type=\"checkbox\" name=\"\(field).remove\" value=\"1\"\(checked)> Remove<span class=\"sr\"> \(WebHTML.escaped(what))</span></label>"
        html += "</span></div>\n"
        return html + problemHTML(field)
    }

    /// ` aria-invalid` and ` aria-describedby` for a field with a problem or a hint.
    private func described(_ key: String, hint: String? = nil) -> String {
        let descriptions = (hint.map { [$0] } ?? []) + (problems[key] != nil ? ["\(key)-problem"] : [])
        var attributes = problems[key] != nil ? " aria-invalid=\"true\"" : ""
        if !descriptions.isEmpty { attributes += " aria-describedby=\"\(descriptions.joined(separator: " "))\"" }
        return attributes
    }

    private func problemHTML(_ key: String) -> String {
        guard let problem = problems[key] else { return "" }
        return "<p class=\"error\" id=\"\(key)-problem\">\(WebHTML.escaped(problem))</p>\n"
    }

    /// The input's type and keyboard: text everywhere (the browser's own checks of emails and
    /// addresses would refuse values the store keeps), with a phone's, an email's or an
    /// address's keyboard.
    private static func inputKind(_ property: PropertyID, part: String) -> String {
        switch (property, part) {
        case (.phones, _): "type=\"tel\""
        case (.emails, _): "type=\"text\" inputmode=\"email\" autocapitalize=\"none\""
        case (.urls, _), (.socialProfiles, "url"): "type=\"text\" inputmode=\"url\" autocapitalize=\"none\""
        default: "type=\"text\""
        }
    }
}
