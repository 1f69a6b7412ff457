import FoundationEssentials

extension WebDAVXMLFuzzer {
    /// A body the fuzzer damages: what it is and the method and depth it is sent with.
    struct Seed: Sendable {
        var name: String
        var method: String
        var depth: String
        var body: String
    }

    /// Request bodies as real clients send them (iOS, Thunderbird, DAVx5, vdirsyncer,
    /// Evolution), each to the server with its method.
    static let requestSeeds: [Seed] = [
        Seed(name: "iOS principal PROPFIND", method: "PROPFIND", depth: "0", body: """
            <?xml version="1.0" encoding="UTF-8"?>
            <A:propfind xmlns:A="DAV:"><A:prop><A:current-user-principal/><A:principal-URL/><A:resourcetype/></A:prop></A:propfind>
            """),
        Seed(name: "Thunderbird listing", method: "PROPFIND", depth: "1", body: """
            <propfind xmlns="DAV:" xmlns:cs="http://calendarserver.org/ns/" xmlns:card="urn:ietf:params:xml:ns:carddav">
              <prop><resourcetype/><displayname/><getetag/><getcontenttype/><cs:getctag/><sync-token/>\
            <card:supported-address-data/><current-user-privilege-set/></prop>
            </propfind>
            """),
        Seed(name: "allprop", method: "PROPFIND", depth: "1", body: #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#),
        Seed(name: "DAVx5 multiget", method: "REPORT", depth: "1", body: """
            <?xml version='1.0' encoding='UTF-8' ?><CARD:addressbook-multiget xmlns="DAV:" xmlns:CARD="urn:ietf:params:xml:ns:carddav">\
            <prop><getetag /><CARD:address-data content-type="text/vcard" version="4.0" /></prop>\
            <href>/me/contacts/katie.vcf</href><href>/me/contacts/a%20b.vcf</href></CARD:addressbook-multiget>
            """),
        Seed(name: "Evolution query", method: "REPORT", depth: "1", body: """
            <C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/>\
            <C:address-data><C:prop name="FN"/><C:prop name="EMAIL"/></C:address-data></D:prop>\
            <C:filter test="anyof"><C:prop-filter name="FN"><C:text-match collation="i;unicode-casemap" match-type="contains" \
            negate-condition="no">katie</C:text-match></C:prop-filter><C:prop-filter name="EMAIL" test="allof">\
            <C:is-not-defined/></C:prop-filter></C:filter><C:limit><C:nresults>10</C:nresults></C:limit></C:addressbook-query>
            """),
        Seed(name: "vdirsyncer sync-collection", method: "REPORT", depth: "0", body: """
            <?xml version="1.0" encoding="utf-8" ?>
            <D:sync-collection xmlns:D="DAV:"><D:sync-token></D:sync-token><D:sync-level>1</D:sync-level>
            <D:prop><D:getcontenttype/><D:getetag/></D:prop></D:sync-collection>
            """),
        Seed(name: "PROPPATCH", method: "PROPPATCH", depth: "0", body: """
            <d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Family &amp; friends\
            </d:displayname><a:addressbook-color>#FF0000</a:addressbook-color></d:prop></d:set>\
            <d:remove><d:prop><x:note xmlns:x="urn:example"/></d:prop></d:remove></d:propertyupdate>
            """),
    ]

    /// Answers as servers send them (Radicale, Xandikos, `contacts serve`), read by the client.
    static let answerSeeds: [Seed] = [
        Seed(name: "Radicale listing", method: "", depth: "", body: """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/">
              <response><href>/user/contacts/</href><propstat><prop><resourcetype><collection /><C:addressbook /></resourcetype>\
            <displayname>Contacts &amp; friends</displayname><CS:getctag>"1700000000"</CS:getctag>\
            <sync-token>http://radicale.org/ns/sync/abc</sync-token></prop><status>HTTP/1.1 200 OK</status></propstat>\
            <propstat><prop><C:max-resource-size /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response>
              <response><href>/user/contacts/katie.vcf</href><propstat><prop><getetag>"e1"</getetag>\
            <getcontenttype>text/vcard; charset=utf-8</getcontenttype></prop><status>HTTP/1.1 200 OK</status></propstat></response>
            </multistatus>
            """),
        Seed(name: "multiget answer", method: "", depth: "", body: """
            <d:multistatus xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav"><d:response><d:href>/a.vcf</d:href>\
            <d:propstat><d:prop><d:getetag>"2"</d:getetag><card:address-data>BEGIN:VCARD&#13;
            VERSION:3.0&#13;
            FN:Katie Bell&#13;
            N:Bell;Katie;;;&#13;
            END:VCARD&#13;
            </card:address-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
            <d:response><d:href>/b.vcf</d:href><d:propstat><d:prop><card:address-data><![CDATA[BEGIN:VCARD\r
            FN:A & B\r
            END:VCARD\r
            ]]></card:address-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """),
        Seed(name: "sync-collection answer", method: "", depth: "", body: """
            <d:multistatus xmlns:d="DAV:"><d:response><d:href>/user/contacts/new.vcf</d:href><d:propstat><d:prop>\
            <d:getetag>"2"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
            <d:response><d:href>/user/contacts/gone.vcf</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>\
            <d:sync-token>http://example.com/sync/1235</d:sync-token></d:multistatus>
            """),
        Seed(name: "need-privileges", method: "", depth: "", body: """
            <?xml version="1.0" encoding="utf-8"?>
            <d:error xmlns:d="DAV:"><d:need-privileges><d:resource><d:href>/tablet/family/a.vcf</d:href>\
            <d:privilege><d:write-content/></d:privilege></d:resource></d:need-privileges></d:error>
            """),
    ]
}
