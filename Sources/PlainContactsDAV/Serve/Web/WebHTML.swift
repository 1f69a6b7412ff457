/// HTML for the web pages: the one escaping function every page goes through, and the frame
/// around each page.
///
/// Every text a user or a card gave is put in a page through ``escaped(_:)``, in element
/// content and in quoted attribute values alike; nothing is ever put in a script, a style or
/// an unquoted attribute.
///
/// ```swift
/// WebHTML.escaped("<script>alert(1)</script>")   // "&lt;script&gt;alert(1)&lt;/script&gt;"
/// ```
enum WebHTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and the control
    /// characters HTML cannot carry dropped: the WebDAV writer's escaping, plus the apostrophe.
    static func escaped(_ text: some StringProtocol) -> String {
        WebDAVXMLWriter.escaped(String(text)).replacingOccurrences(of: "'", with: "&#39;")
    }

    /// What the frame of a page shows of the signed-in user.
    struct Signed {
        /// The user's name; `nil` on a server without users.
        var user: String?
        /// The token every form of the page carries.
        var formToken: String
    }

    /// A whole page: the document with its title, the style sheet and script, a link that
    /// skips to the content for keyboard users, a header with the sign-out button when someone
    /// is signed in, and `body` (HTML, already escaped).
    static func page(title: String, signed: Signed?, body: String) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title>
            <link rel="stylesheet" href="\(WebAssets.stylePath)">
            <script src="\(WebAssets.scriptPath)" defer></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to the content</a>
            <header class="bar"><a class="home" href="/web/">Contacts</a>
            """
        if let signed {
            if let user = signed.user {
                html += "<span class=\"user\">\(escaped(user))</span>"
                html += "<form method=\"post\" action=\"/web/signout\">\(tokenField(signed.formToken))"
                html += "<button type=\"submit\">Sign out</button></form>"
            }
        }
        html += "</header>\n<main id=\"main\" tabindex=\"-1\">\n" + body + "\n</main>\n</body>\n</html>\n"
        return html
    }

    /// The hidden field that carries a form's token.
    static func tokenField(_ token: String) -> String {
        "<input type=\"hidden\" name=\"\(WebForm.tokenField)\" value=\"\(escaped(token))\">"
    }
}
