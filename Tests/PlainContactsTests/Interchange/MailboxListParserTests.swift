import Testing
@testable import PlainContacts

@Suite struct MailboxListParserTests {
    private func parsed(_ text: String) -> [String]? {
        MailboxListParser.parse(text)?.map { "\($0.name)|\($0.address)" }
    }

    @Test func everyMailboxFormIsRead() {
        #expect(parsed("Katie Bell <k@x.example>") == ["Katie Bell|k@x.example"])
        #expect(parsed(#""Bell, Katie" <k@x.example>"#) == ["Bell, Katie|k@x.example"])
        #expect(parsed("k@x.example (Katie Bell)") == ["Katie Bell|k@x.example"])
        #expect(parsed("k@x.example") == ["|k@x.example"])
        #expect(parsed("<k@x.example>") == ["|k@x.example"])
        #expect(parsed(#""Katie \"KB\" Bell" <k@x.example>"#) == [#"Katie "KB" Bell|k@x.example"#])
        #expect(parsed("k@x.example (Katie (the chaser) Bell)") == ["Katie (the chaser) Bell|k@x.example"])
    }

    @Test func groupsAreFlattenedAndEncodedWordsDecoded() {
        let text = #""Group 1 (Test)": =?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?= <keld@dkuug.example>, "#
            + "=?ISO-8859-1?Q?Andr=E9?= Pirard <pirard@vm1.example>;, wellnhofer@aevum.example"
        #expect(
            parsed(text) == [
                "Keld Jørn Simonsen|keld@dkuug.example", "André Pirard|pirard@vm1.example", "|wellnhofer@aevum.example",
            ])
        #expect(parsed("undisclosed-recipients:;") == [])
    }

    @Test func groupDisplayNamesAreGivenApart() {
        var names: [String] = []
        let text = #""Group 1 (Test)": keld@dkuug.example;, quidditch: k@x.example, o@x.example;, w@aevum.example"#
        #expect(MailboxListParser.parse(text, groupNames: &names)?.count == 4)
        #expect(names == ["Group 1 (Test)", "quidditch"])
    }

    @Test func aSourceRouteIsDropped() {
        #expect(parsed("<@relay.example:k@x.example>") == ["|k@x.example"])
    }

    @Test func bareWordsAreMarkedForAliasExpansion() {
        let mailboxes = MailboxListParser.parse("kb, lee@x.example")
        #expect(mailboxes?.map(\.isBareWord) == [true, false])
    }

    @Test func unbalancedOrNamelessTextIsNotAnAddressList() {
        #expect(parsed("Katie Bell") == nil)
        #expect(parsed("<k@x.example") == nil)
        #expect(parsed(#""Katie <k@x.example>"#) == nil)
        #expect(parsed("k@x.example (Katie") == nil)
        #expect(parsed("k@x.example)") == nil)
        #expect(parsed("<a@x.example> <b@x.example>") == nil)
        #expect(parsed("(just a comment)") == nil)
    }
}
