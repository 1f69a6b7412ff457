import Foundation
import Testing
@testable import PlainContactsDAV

@Suite struct XMLReaderTests {
    private func read(_ text: String, depth: Int = 16) throws -> WebDAVElement {
        try XMLReader(maximumDepth: depth).read(Array(text.utf8))
    }

    private func failure(_ text: String, depth: Int = 16) -> XMLReader.Failure? {
        do throws(XMLReader.Failure) {
            _ = try XMLReader(maximumDepth: depth).read(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func namesAreQualifiedByTheNamespacesInScope() throws {
        let root = try read("""
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment --><?pi anything?>
            <d:propfind xmlns:d="DAV:" xmlns="urn:default"><d:prop><plain/><c:x xmlns:c="urn:c"/>\
            <d:y xmlns:d="urn:inner"/><z xmlns=""/></d:prop></d:propfind>
            """)
        #expect(root.name == .dav("propfind"))
        let prop = try #require(root.child(.dav("prop")))
        #expect(prop.children.map(\.name) == [
            .init(namespace: "urn:default", local: "plain"), .init(namespace: "urn:c", local: "x"),
            .init(namespace: "urn:inner", local: "y"), .init(namespace: "", local: "z"),
        ])
    }

    @Test func attributesAreKeptByLocalNameWithoutNamespaceDeclarations() throws {
        let root = try read("<c:prop-filter xmlns:c=\"urn:c\" name=\"FN\" c:test='any&amp;of' spaced=\"a&#9;b&#x0A;c\td\"/>")
        #expect(root.attributes == ["name": "FN", "test": "any&of", "spaced": "a\tb\nc d"])
        #expect(root.name == .init(namespace: "urn:c", local: "prop-filter"))
    }

    @Test func textDecodesReferencesAndReadsLineEndsAsLineFeeds() throws {
        let root = try read("<a>x &lt;&gt;&amp;&quot;&apos; &#233;&#x1F600;\r\ny\rz<b/>tail</a>")
        #expect(root.text == "x <>&\"' é😀\ny\nztail")
        #expect(root.children.map(\.name.local) == ["b"])
    }

    @Test func cdataIsKeptAsWrittenWithItsCRLF() throws {
        let root = try read("<a><![CDATA[BEGIN:VCARD\r\nFN:A & <B>\r\nEND:VCARD\r\n]]></a>")
        #expect(root.text == "BEGIN:VCARD\r\nFN:A & <B>\r\nEND:VCARD\r\n")
    }

    @Test func namesMayBeAnyLanguagesLetters() throws {
        let root = try read(#"<連絡先 xmlns="urn:x" атрибут="да"><ñ-1.x/></連絡先>"#)
        #expect(root.name.local == "連絡先")
        #expect(root.attributes["атрибут"] == "да")
        #expect(root.children.first?.name.local == "ñ-1.x")
    }

    @Test(arguments: [
        ("", "no root element"),
        ("   ", "no root element"),
        ("text<a/>", "text before the root element"),
        ("<a/><b/>", "content after the root element"),
        ("<a/>text", "content after the root element"),
        ("<a>", "the body ends inside an element"),
        ("<a", "the body ends inside a start tag"),
        ("<a></b>", "an end tag that does not match its start tag"),
        ("<a><b></a></b>", "an end tag that does not match its start tag"),
        ("</a>", "an end tag without a start tag"),
        ("<p:a/>", "an undeclared namespace prefix"),
        ("<a p:x='1'/>", "an undeclared namespace prefix"),
        ("<xmlns:a xmlns:xmlns='u'/>", "a namespace prefix bound to nothing or to xmlns"),
        ("<a xmlns:p=''/>", "a namespace prefix bound to nothing or to xmlns"),
        ("<a x='1' x='2'/>", "an attribute given twice"),
        ("<a x='1'y='2'/>", "an attribute not separated by white space"),
        ("<a x/>", "an attribute without a value"),
        ("<a x=1/>", "an attribute value without quotes"),
        ("<a x='<'/>", "a \"<\" inside an attribute value"),
        ("<a>&nbsp;</a>", "an undeclared entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)"),
        ("<a>&#0;</a>", "an undeclared entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)"),
        ("<a>&#xD800;</a>", "an undeclared entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)"),
        ("<a>&#x110000;</a>", "an undeclared entity (only &lt; &gt; &amp; &quot; &apos; and character references are read)"),
        ("<a>&#99999999999999999999;</a>", "a reference without its \";\""),
        ("<a>&amp</a>", "a reference without its \";\""),
        ("<1a/>", "a tag without a name"),
        ("<a:b:c xmlns:a='u'/>", "a name with a misplaced colon"),
        ("<:a/>", "a name with a misplaced colon"),
        ("<a:/>", "a name with a misplaced colon"),
        ("<a><!ENTITY x 'y'></a>", "a markup declaration inside an element"),
        ("<!DOCTYPE a><a/>", "a document type declaration, which WebDAV never needs"),
        ("<a><?xml version='1.0'?></a>", "an XML declaration that is not at the start"),
        ("<a><![CDATA[x</a>", "a CDATA section without its end"),
        ("<a><!-- x</a>", "a comment without its end"),
    ])
    func whatIsNotWellFormedIsRefusedWithItsReason(_ text: String, _ reason: String) {
        #expect(failure(text)?.reason == reason)
    }

    @Test func aFailureNamesItsLine() {
        #expect(failure("<a>\n<b>\n</c></a>")?.line == 3)
    }

    @Test func nestingPastTheLimitIsRefusedAsTooDeep() throws {
        let nested = { (levels: Int) in String(repeating: "<x>", count: levels) + String(repeating: "</x>", count: levels) }
        #expect(try read(nested(8), depth: 8).name.local == "x")
        let refused = failure(nested(9), depth: 8)
        #expect(refused?.tooDeep == true)
        #expect(failure(nested(100_000), depth: 64)?.tooDeep == true)
    }

    @Test func aHugeNameIsReadAsAnyOther() throws {
        let name = String(repeating: "n", count: 1_000_000)
        #expect(try read("<\(name)></\(name)>").name.local.count == 1_000_000)
        #expect(failure("<\(name)></\(name)x>")?.reason == "an end tag that does not match its start tag")
    }
}
