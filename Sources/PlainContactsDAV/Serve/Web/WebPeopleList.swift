import PlainContacts

/// One page of a book's people list: its lines (each a link to the person, with a thumbnail
/// of their photo, the name in its language and the first phone and email), the count, and
/// links to the pages before and after, which the script follows by itself as the list is
/// scrolled.
///
/// A page holds ``pageSize`` people, so that a book of 10,000 people is sent and drawn at once
/// page by page instead of all at once; the links keep the search and the group.
///
/// ```swift
/// let read = whole.read(words: "bel", group: nil)
/// let list = WebPeopleList(rows: read.rows, page: 2, query: "q=bel")
/// list.html(withPhotos: read.withPhotos)
/// ```
struct WebPeopleList {
    /// The people a page shows.
    static let pageSize = 200

    /// Every line of the list, all pages.
    var rows: [PersonListing]
    /// The page shown, from 1.
    var page: Int
    /// The query the page links keep (`q=…&group=…`), already encoded; empty for none.
    var query: String

    /// The list's last page, from 1.
    var lastPage: Int { max(1, (rows.count + Self.pageSize - 1) / Self.pageSize) }

    init(rows: [PersonListing], page: Int, query: String) {
        self.rows = rows
        self.query = query
        self.page = min(max(1, page), max(1, (rows.count + Self.pageSize - 1) / Self.pageSize))
    }

    /// The lines of the page shown.
    var shown: ArraySlice<PersonListing> {
        let start = (page - 1) * Self.pageSize
        return rows[min(start, rows.count)..<min(start + Self.pageSize, rows.count)]
    }

    /// The list as HTML; `withPhotos` are the people whose thumbnails are shown.
    func html(withPhotos: Set<RecordID>) -> String {
        let start = (page - 1) * Self.pageSize
        var html = "<div id=\"people\"><p class=\"count muted\" aria-live=\"polite\">\(rows.count) \(rows.count == 1 ? "person" : "people")"
        if lastPage > 1 { html += ", \(start + 1)–\(start + shown.count) shown" }
        html += "</p>\n<ul class=\"people\">\n"
        if rows.isEmpty {
            html += "<li class=\"muted\">Nobody here. Someone removed may be among the <a href=\"removed/\">removed people</a>.</li>\n"
        }
        for row in shown {
            let id = row.recordID.rawValue
            let name = row.compositeName ?? "(no name)"
            html += "<li><a href=\"people/\(id)\">"
            if withPhotos.contains(row.recordID) {
                html += "<img class=\"thumb\" src=\"people/\(id)/photo\" alt=\"\" width=\"40\" height=\"40\" loading=\"lazy\">"
            } else {
                html += "<span class=\"thumb\" aria-hidden=\"true\"></span>"
            }
            html += "<span class=\"name\"\(WebNameLanguage.attribute(of: name))>\(WebHTML.escaped(name))</span>"
            let detail = [row.firstPhone, row.firstEmail].compactMap { $0 }.joined(separator: " · ")
            if !detail.isEmpty { html += "<span class=\"detail\">\(WebHTML.escaped(detail))</span>" }
            html += "</a></li>\n"
        }
        html += "</ul>\n"
        if lastPage > 1 {
            html += "<nav class=\"pages\" aria-label=\"Pages of the list\">"
            if page > 1 { html += "<a rel=\"prev\" href=\"\(WebHTML.escaped(link(to: page - 1)))\">Previous \(Self.pageSize)</a> " }
            html += "<span class=\"muted\">Page \(page) of \(lastPage)</span>"
            if page < lastPage { html += " <a rel=\"next\" href=\"\(WebHTML.escaped(link(to: page + 1)))\">Next \(Self.pageSize)</a>" }
            html += "</nav>\n"
        }
        return html + "</div>"
    }

    /// The address of another page of the list.
    private func link(to page: Int) -> String {
        "?" + (query.isEmpty ? "" : query + "&") + "page=\(page)"
    }
}
