import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The person form's rows and the edits a sent form makes, without a server.
@Suite struct WebPersonFormTests {
    private func sent(_ pairs: [(String, String)]) -> WebPersonForm {
        WebPersonForm(sent: WebForm(pairs.map { WebForm.encoded($0.0) + "=" + WebForm.encoded($0.1) }.joined(separator: "&")))
    }

    @Test func everyMultiValueOfAPersonIsARowWithItsParts() throws {
        let person = Person()
        person.addresses = MultiValue([(PostalAddress(street: "1 Main St\nFlat 2", city: "Springfield", countryCode: "us"), .home)])
        person.dates = MultiValue([(try ContactDate(year: 2010, month: 6, day: 1), .anniversary)])
        person.instantMessages = MultiValue([(InstantMessage(service: "Matrix", username: "@kb:example.org"), .work)])
        person.socialProfiles = MultiValue([(SocialProfile(url: "https://social.example/@kb", service: "Mastodon"), nil)])
        person.relatedNames = MultiValue([("Ann Bell", .mother)])

        let form = WebPersonForm(person)

        #expect(form.rows["addresses"]?.first?.parts["street"] == "1 Main St\nFlat 2")
        #expect(form.rows["addresses"]?.first?.parts["countryCode"] == "us")
        #expect(form.rows["addresses"]?.first?.label == "home")
        #expect(form.rows["dates"]?.first?.parts["value"] == "2010-06-01")
        #expect(form.rows["instantMessages"]?.first?.parts["username"] == "@kb:example.org")
        #expect(form.rows["socialProfiles"]?.first?.parts["service"] == "Mastodon")
        #expect(form.rows["relatedNames"]?.first?.label == "mother")
        let html = form.fieldsHTML()
        #expect(html.contains("<textarea name=\"addresses.0.street\" rows=\"2\">1 Main St\nFlat 2</textarea>"))
        #expect(html.contains("name=\"instantMessages.0.service\" value=\"Matrix\""))
        #expect(html.contains("<option value=\"person\" selected>"))
    }

    @Test func aSentFormSetsEveryKindOfPropertyAndKeepsWhatTheFormDoesNotShow() throws {
        let person = Person()
        person.addresses = MultiValue([(PostalAddress(street: "Old", city: "Town"), .home)])
        let id = person.addresses.identifier(at: 0)
        let form = sent([
            ("kind", "organization"), ("organization", "Bell & Co"),
            ("addresses.0.id", "\(id.rawValue)"), ("addresses.0.label", "work"), ("addresses.0.street", "2 High St"),
            ("addresses.0.city", "Springfield"), ("addresses.0.zip", ""),
            ("dates.0.label", "anniversary"), ("dates.0.value", "--06-01"),
            ("instantMessages.0.service", "Matrix"), ("instantMessages.0.username", "@kb:example.org"),
            ("socialProfiles.0.url", "https://social.example/@kb"), ("socialProfiles.0.service", "Mastodon"),
            ("relatedNames.0.label", "mother"), ("relatedNames.0.value", "Ann Bell"),
            ("urls.0.value", "https://example.org"), ("urls.1.value", ""),
        ])

        try person.apply(try form.edits(over: person))

        #expect(person.kind == .organization)
        #expect(person.organization == "Bell & Co")
        #expect(person.addresses.first?.value == PostalAddress(street: "2 High St", city: "Springfield"))
        #expect(person.addresses.identifier(at: 0) == id)
        #expect(person.addresses.label(at: 0) == .work)
        let june = try ContactDate(month: 6, day: 1)
        #expect(person.dates.first?.value == june)
        #expect(person.instantMessages.first?.value == InstantMessage(service: "Matrix", username: "@kb:example.org"))
        #expect(person.socialProfiles.first?.value.url == "https://social.example/@kb")
        #expect(person.relatedNames.label(at: 0) == .mother)
        #expect(person.urls.values == ["https://example.org"])
    }

    @Test func aTickedRemoveBoxRemovesTheRowAndEmptyRowsAreLeftOut() throws {
        let person = Person()
        person.phones = MultiValue([("1", .home), ("2", .work)])
        let form = sent([("phones.0.value", "1"), ("phones.0.remove", "1"), ("phones.1.value", "2"), ("phones.2.value", " ")])

        try person.apply(try form.edits(over: person))

        #expect(person.phones.values == ["2"])
    }

    @Test func rowsMoveUpAndDownAndTheAddButtonOffersAnotherRow() {
        var form = sent([("phones.0.value", "a"), ("phones.1.value", "b"), ("phones.2.value", "c")])

        var pressed = form.perform("move:phones.2.up")
        #expect(pressed)
        #expect(form.rows["phones"]?.map { $0.parts["value"] } == ["a", "c", "b"])
        pressed = form.perform("move:phones.0.down")
        #expect(pressed)
        #expect(form.rows["phones"]?.map { $0.parts["value"] } == ["c", "a", "b"])
        pressed = form.perform("move:phones.0.up")
        #expect(pressed)
        #expect(form.rows["phones"]?.map { $0.parts["value"] } == ["c", "a", "b"])
        pressed = form.perform("add:addresses")
        #expect(pressed)
        #expect(form.fieldsHTML().contains("name=\"addresses.1.street\""))
        pressed = form.perform("save")
        #expect(!pressed)
        pressed = form.perform(nil)
        #expect(!pressed)
        pressed = form.perform("add:nothing")
        #expect(!pressed)
    }

    @Test func aBadDateIsAProblemOfItsRowAndNothingIsChanged() {
        let form = sent([("dates.0.value", "2020-01-01"), ("dates.1.value", "soon")])

        #expect(throws: WebPersonForm.Problems.self) { try form.edits(over: nil) }
        var shown = form
        do { _ = try form.edits(over: nil) } catch { shown.problems = error.byField }
        #expect(shown.problems.keys.sorted() == ["dates.1"])
        #expect(shown.fieldsHTML().contains("<p class=\"error\" id=\"dates.1-problem\">"))
        #expect(shown.fieldsHTML().contains("aria-describedby=\"dates.1-problem\""))
        // The format is shown beside every date: the two sent and the empty one for a new date.
        #expect(shown.fieldsHTML().components(separatedBy: " (YYYY-MM-DD)</span>").count == 4)
    }

    @Test func onlyAJPEGPNGGIFOrWebPPhotoIsTaken() throws {
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
        var form = WebPersonForm()
        form.photo = svg

        #expect(throws: WebPersonForm.Problems.self) { try form.edits(over: nil) }

        form.photo = png
        let person = Person()
        try form.apply(try form.edits(over: nil), to: person)
        #expect(try person.imageData() == png)
    }

    @Test func whatTheFormShowsIsEscaped() {
        var form = WebPersonForm()
        form.texts["firstName"] = "\"><script>alert(1)</script>"
        form.rows["urls"] = [WebPersonForm.Row(label: "<b>", value: "javascript:alert(1)")]

        let html = form.fieldsHTML()

        #expect(!html.contains("<script>"))
        #expect(html.contains("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(html.contains("value=\"&lt;b&gt;\""))
    }
}
