import Foundation
import Testing
@testable import PlainContactsDAV

@Suite struct WebMultipartTests {
    @Test func fieldsAndFilesAreReadWithTheirNamesAndBytes() throws {
        let body = Data(
            ("--b\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\nabc\r\n"
                + "--b\r\ncontent-disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\".csv\"\r\nContent-Type: text/csv\r\n\r\n"
                + "Name,Email\r\nKatie,k@example.org\r\n\r\n--b--\r\n").utf8)

        let parts = try #require(WebMultipart.parts(of: body, contentType: "multipart/form-data; boundary=b"))

        #expect(parts.count == 2)
        #expect(parts[0] == WebMultipart.Part(name: "token", fileName: nil, type: nil, data: Data("abc".utf8)))
        #expect(parts[1].fileName == "a \"b\".csv")
        #expect(parts[1].type == "text/csv")
        #expect(parts[1].data == Data("Name,Email\r\nKatie,k@example.org\r\n".utf8))
    }

    @Test func aQuotedBoundaryBareLineFeedsAndAMissingCloseAreRead() throws {
        let body = Data("preamble\n--x y\ncontent-disposition: form-data; name=a\n\n1\n--x y\nContent-Disposition: form-data; name=\"b\"\n\n2".utf8)

        let form = WebForm(body: body, contentType: "Multipart/Form-Data; boundary=\"x y\"")

        #expect(form["a"] == "1")
        #expect(form["b"] == "2")
    }

    @Test func anotherTypeIsReadAsAURLEncodedForm() {
        #expect(WebMultipart.parts(of: Data("a=1".utf8), contentType: "application/x-www-form-urlencoded") == nil)
        #expect(WebForm(body: Data("a=1&b=%20".utf8), contentType: "application/x-www-form-urlencoded")["b"] == " ")
        #expect(WebForm(body: Data("a=1".utf8), contentType: nil)["a"] == "1")
    }

    @Test func aPartWithoutANameIsLeftOutAndAFileIsNotAField() {
        let body = Data("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n\r\n\r\n--b--".utf8)

        let form = WebForm(body: body, contentType: "multipart/form-data; boundary=b")

        #expect(form.fields.isEmpty)
        #expect(form.files["f"]?.data.isEmpty == true)
    }
}
