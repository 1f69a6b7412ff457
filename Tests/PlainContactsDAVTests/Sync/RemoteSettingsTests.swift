import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct RemoteSettingsTests {
    @Test(arguments: [
        "https://dav.example.com/kim/contacts/", "http://127.0.0.1:5232/kim/contacts/", "HTTPS://Example.com",
        "http://[::1]:8080/dav/",
    ])
    func acceptsHTTPAndHTTPSURLsWithAHost(text: String) throws {
        #expect(try RemoteSettings.collectionURL(from: text).absoluteString == text)
    }

    @Test(arguments: [
        "", "dav.example.com/contacts", "ftp://example.com/", "file:///home/kim/contacts", "https:///path",
        "https://kim:secret@example.com/dav/", "https://kim@example.com/dav/", "not a url",
    ])
    func refusesOtherSchemesMissingHostsAndCredentialsInTheURL(text: String) {
        var code: ContactsError.Code?
        do {
            _ = try RemoteSettings.collectionURL(from: text)
        } catch {
            code = error.code
        }
        #expect(code == .invalidValue)
    }

    @Test(arguments: [
        ("http://dav.example.com/", true), ("https://dav.example.com/", false), ("http://localhost:5232/", false),
        ("http://127.0.0.1:5232/", false), ("http://127.1.2.3/", false), ("http://[::1]:5232/", false),
        ("http://127.0.0.1.example.com/", true), ("http://10.0.0.2/", true),
    ])
    func onlyPlainHTTPBeyondTheLoopbackInterfaceSendsThePasswordInClear(text: String, inClear: Bool) throws {
        let remote = RemoteSettings(name: try RemoteName("r"), url: try RemoteSettings.collectionURL(from: text))
        #expect(remote.sendsPasswordInClear == inClear)
    }
}
