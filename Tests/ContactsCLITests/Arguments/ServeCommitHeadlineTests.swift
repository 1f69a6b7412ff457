@testable import contacts
import Testing

/// The client a `contacts serve --commit` commit names, from the `User-Agent` each real client
/// sends.
struct ServeCommitHeadlineTests {
    @Test(arguments: [
        ("vdirsyncer/0.19.2", "vdirsyncer/0.19.2"),
        ("DAVx5/4.4.2-ose (2024/08/27; dav4jvm; okhttp/4.12.0) Android/14", "DAVx5/4.4.2-ose"),
        ("iOS/18.0 (22A3354) dataaccessd/1.0", "iOS/18.0"),
        ("macOS/15.0 (24A335) AddressBookCore/2735.4", "macOS/15.0"),
        ("Evolution/3.46.4", "Evolution/3.46.4"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Thunderbird/153.7.0", "Thunderbird/153.7.0"),
        ("Mozilla/5.0", "Mozilla/5.0"),
        ("(only a comment)", nil),
    ] as [(String, String?)])
    func theClientIsNamedByItsProduct(userAgent: String, product: String?) {
        #expect(ServeCommitter.clientProduct(of: userAgent) == product)
    }
}
